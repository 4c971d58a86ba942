import os

import pytest

# Extension packages with tests of their own, run once each is installed
# (tests/test_pytorch_extensions.py, ci/testing/extensions.py), not collected here.
collect_ignore = ["extensions"]


def pytest_report_header(config):
    import torch

    return f"torch {torch.__version__} from {os.path.dirname(torch.__file__)}"


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(1234)
