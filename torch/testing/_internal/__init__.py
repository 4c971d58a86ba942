"""The parts of PyTorch's private test helpers that extension packages'
test suites import (PyTorch's extension template imports TestCase from
common_utils and opcheck from optests); the rest of PyTorch's internal
test machinery is not here."""
