import os

import pytest


def pytest_report_header(config):
    import torch

    return f"torch {torch.__version__} from {os.path.dirname(torch.__file__)}"


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(1234)
