"""The comparison's three categories and the report's totals, on a made-up API."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import api_report  # noqa: E402

REFERENCE = {"torch_version": "9.9.0", "modules": {
    "torch": {"add": {"kind": "function", "params": ["input", "other", "alpha"]},
              "sparse_coo_tensor": {"kind": "function", "params": None},
              "roll": {"kind": "function", "params": None}},
    "torch.special": {"zeta": {"kind": "function", "params": None}},
}}
OURS = {"torch_version": "0.1.0", "modules": {
    "torch": {"add": {"kind": "function", "params": ["input", "other"]}},
    "torch.special": None,  # the module does not exist
}}


def test_categories():
    c = api_report.compare(REFERENCE, OURS)
    assert c["torch"]["implemented"] == {"add": ["alpha"]}
    assert c["torch"]["out_of_scope"] == {"sparse_coo_tensor": "sparse tensors"}
    assert c["torch"]["missing"] == ["roll"]
    assert c["torch.special"]["missing"] == ["zeta"]
    assert api_report.totals(c) == (1, 1, 2)


def test_render_states_the_percentage():
    text = api_report.render(REFERENCE, api_report.compare(REFERENCE, OURS), "0.1.0")
    assert "**Coverage: 1 of 3 in-scope names (33.3%)" in text
    assert "| `torch.special` | 0 | 1 | 0.0% | 0 | 1 |" in text
    assert "- `torch`: add (alpha)" in text
    assert "- sparse tensors: torch.sparse_coo_tensor" in text
