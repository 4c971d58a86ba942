"""Publish: the PEP 503 index (`index`), wheel variants (`variants`), the
PyPI form of a cpu wheel (`pypi_wheel`), the release steps (`release`),
the PyPI upload (`pypi`) and the GitHub Releases (`github_releases`)."""
