"""Testing beyond the host's venvs (which ci/factory.py runs): the Windows
wheel's suite under Wine (`wine`), C++ extensions built against each
wheel (`extensions`)."""
