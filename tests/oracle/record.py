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
