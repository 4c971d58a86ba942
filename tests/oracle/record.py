"""Run with real PyTorch installed (outside this checkout) to record
values.json:  python tests/oracle/record.py  (from the repository root, with
the reference venv's python: build/torch-ref/bin/python)."""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))  # tests/, for `oracle.cases`
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.dirname(here))]

import torch  # noqa: E402

from oracle.cases import CASES  # noqa: E402

values = {"torch": torch.__version__, "cases": {name: fn() for name, fn in sorted(CASES.items())}}
with open(os.path.join(here, "values.json"), "w") as f:
    json.dump(values, f, indent=0)
    f.write("\n")
print(f"recorded {len(CASES)} cases from torch {torch.__version__} at {torch.__file__}")

# PyTorch's own files, for tests/test_serialization.py: a checkpoint of every
# dtype, a view, a transposed tensor, a Parameter, and a whole pickled module.
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4)).double()
model[1].running_mean.fill_(0.25)
base = torch.arange(6.0).reshape(2, 3)
with torch.no_grad():
    output = model.eval()(torch.ones(1, 3, dtype=torch.float64)).tolist()
checkpoint = {"model": model.state_dict(), "transposed": base.t(), "row": base[1], "scalar": torch.tensor(2.5),
              "half": torch.ones(2, dtype=torch.float16), "bf16": torch.tensor([1.5, -2.25]).bfloat16(),
              "mask": torch.tensor([True, False]), "int8": torch.tensor([-3, 7], dtype=torch.int8),
              "param": torch.nn.Parameter(torch.ones(2)), "dtype": torch.bfloat16, "size": torch.Size([2, 3]),
              "empty": torch.zeros(0, 3), "module_output": output}
torch.save(checkpoint, os.path.join(here, "pytorch_checkpoint.pt"))
torch.save(model, os.path.join(here, "pytorch_module.pt"))
print("wrote pytorch_checkpoint.pt and pytorch_module.pt")

# A safetensors file written by PyTorch's safetensors.torch, for
# tests/test_libraries.py (needs `pip install safetensors` beside PyTorch).
from oracle.files import safetensors_tensors  # noqa: E402

try:
    from safetensors.torch import save_file
except ImportError:
    print("safetensors is not installed beside PyTorch: pytorch_tensors.safetensors not rewritten")
else:
    save_file(safetensors_tensors(torch), os.path.join(here, "pytorch_tensors.safetensors"), metadata={"by": "oracle"})
    print("wrote pytorch_tensors.safetensors")

# Views of one storage and complex tensors, as PyTorch saves them (one record per storage).
base = torch.arange(10.0)
torch.save({"head": base[:6], "tail": base[4:], "grid": base.reshape(2, 5).t(),
            "complex": torch.view_as_complex(torch.arange(8.0).reshape(4, 2)),
            "complex128": torch.view_as_complex(torch.arange(4.0, dtype=torch.float64).reshape(2, 2))},
           os.path.join(here, "pytorch_views.pt"))
print("wrote pytorch_views.pt")
