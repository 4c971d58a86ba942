"""The wheel factory: every wheel of ci/matrix.toml built, repaired, checked,
tested, indexed and published, the same on a laptop, in `.ci/run`, under
cibuildwheel and on GitHub. Run its jobs from the checkout as
`python3 -m ci JOB [ARGS]` (`python3 -m ci --help` lists them).

The stages, each a subpackage, in pipeline order:

    plan      the matrix (matrix.toml) and its views
    local     this machine's infrastructure: CPython builds, the container
              image, python.org's Windows CPython
    builders  the wheels under cibuildwheel, and with zig for macOS and Windows
    repair    auditwheel, delocate, delvewheel; the third-party notices
    check     the repaired wheel: ELF, Mach-O, PE, contents, CPU code
    testing   suites beyond the host's venvs: Wine, C++ extensions
    publish   the indexes, variant wheels, the release steps, PyPI, Releases
    act       the local stand-ins for GitHub's hosted actions
    lint      the workflows' pins, runner labels and requirements

`factory` (README's main command) drives plan to publish's index on one
machine; `rehearse` runs the release on top of it (release.py's steps against
loopback servers, and the tag push's workflows under act); `proc` holds what
they all share. No stage imports what drives it, and the stages' imports form
no circle (ci/tests/test_import_graph.py; docs/ARCHITECTURE.md draws them).
"""
