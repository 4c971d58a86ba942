"""This machine's infrastructure: CPythons it lacks (`cpython`), the
container image for podman (`image`), and python.org's Windows CPython
(`windows_python`)."""
