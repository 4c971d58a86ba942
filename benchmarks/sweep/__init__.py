"""The whole-API speed sweep against PyTorch (see __main__.py): candidates
(native_cases.py, python_cases.py, inputs.py), the per-interpreter timer
(timer.py, runner.py) and the verdicts (report.py)."""
