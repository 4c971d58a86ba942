"""The wheel's Python classifiers come from ci/matrix.toml's pythons, and PyPI
knows every one (it refuses an upload with an unknown classifier)."""
from tools.setup_helpers import matrix


def test_each_matrix_python_is_a_classifier():
    classifiers = matrix.python_classifiers({"pythons": ["3.9", "3.10", "3.14", "3.14t", "3.15", "3.15t"]})
    assert classifiers == ["Programming Language :: Python :: 3.9", "Programming Language :: Python :: 3.10",
                           "Programming Language :: Python :: 3.14", "Programming Language :: Python :: 3.15",
                           "Programming Language :: Python :: Free Threading :: 2 - Beta"]
    assert not any("Free Threading" in c for c in matrix.python_classifiers({"pythons": ["3.12"]}))


def test_pypi_knows_the_classifiers():
    from trove_classifiers import classifiers as known  # ci/requirements-tools.txt

    ours = matrix.python_classifiers()
    assert "Programming Language :: Python :: 3.15" in ours
    assert [c for c in ours if c not in known] == []
