"""API coverage against a reference PyTorch: which public names of PyTorch's
modules this torch has (implemented), leaves out on purpose (out of scope,
with the reason from scope.toml), or lacks (missing).

    python -m tools.api_coverage snapshot      # under real PyTorch: writes pytorch-<version>.json
    python -m tools.api_coverage report        # under this torch: writes docs/API_COVERAGE.md
    python -m tools.api_coverage report --check  # fails when the report is not current

snapshot.py reads a torch's public API; report.py compares two readings.
"""
