"""The factory's package layout holds: every module under ci/ is imported by
its dotted name (no `sys.path` manipulation anywhere in ci/), says its job
in a docstring, and the imports, deferred ones inside functions included,
form no circle; the stages below the factory never import the factory or
the local release runs that drive it."""
import ast
import graphlib
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CI = os.path.join(ROOT, "ci")
# The top of the pipeline: what drives the stages. Nothing else may import these.
DRIVERS = ("ci.factory", "ci.rehearse.steps", "ci.rehearse.workflows", "ci.__main__")


def ci_modules(with_tests=False):
    """Dotted name -> path of every module of the ci package."""
    found = {}
    for folder, dirs, files in os.walk(CI):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and (with_tests or d != "tests"))
        for name in sorted(files):
            if name.endswith(".py"):
                dotted = os.path.relpath(os.path.join(folder, name), ROOT)[:-3].replace(os.sep, ".")
                found[dotted.removesuffix(".__init__")] = os.path.join(folder, name)
    return found


def imported(path, modules):
    """The ci modules a file imports (`from ci.x import y` counts as ci.x.y when that is a module)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name in modules and name != "ci"}  # the package itself is no edge


def ci_import_graph():
    modules = ci_modules()
    return {name: imported(path, modules) - {name} for name, path in modules.items()}


def test_the_graph_has_the_factory_edges():
    graph = ci_import_graph()
    assert {"ci.local.cpython", "ci.plan.matrix", "ci.publish.index", "ci.proc"} <= graph["ci.factory"]
    assert "ci.local.cpython" in graph["ci.local.image"]
    assert "ci.factory" in graph["ci.rehearse.workflows"]


def test_no_import_circle_in_ci():
    try:
        graphlib.TopologicalSorter(ci_import_graph()).prepare()
    except graphlib.CycleError as error:
        raise AssertionError(f"an import circle in ci/: {' -> '.join(error.args[1])}") from None


def test_stages_never_import_what_drives_them():
    graph = ci_import_graph()
    wrong = sorted((name, target) for name, targets in graph.items() if name not in DRIVERS
                   for target in targets if target in DRIVERS)
    assert wrong == [], f"a stage imports the factory or a release run: {wrong}"


def test_no_sys_path_manipulation_in_ci():
    offenders = [os.path.relpath(path, ROOT) for path in ci_modules(with_tests=True).values()
                 if re.search(r"sys\.path\.(insert|append|extend)|sys\.path\s*(\+?=|\[)", open(path, encoding="utf-8").read())]
    assert offenders == []


@pytest.mark.parametrize("name", sorted(ci_modules()))
def test_every_module_says_its_job(name):
    with open(ci_modules()[name], encoding="utf-8") as f:
        assert ast.get_docstring(ast.parse(f.read())), f"{name} has no docstring naming its job"


def test_every_job_of_the_entry_point_is_a_module_run_as_a_program():
    from ci.__main__ import JOBS

    modules = ci_modules()
    for job, module in JOBS.items():
        assert module in modules, job
        assert 'if __name__ == "__main__":' in open(modules[module], encoding="utf-8").read(), module


def stage_imports():
    """'stage -> the stages it imports' lines (a stage: ci/'s subpackage or top-level module; proc, which
    every stage uses, left out), as docs/ARCHITECTURE.md draws them."""
    stage = lambda name: name.split(".")[1]  # noqa: E731
    edges = {}
    for name, targets in ci_import_graph().items():
        for target in targets:
            if stage(target) not in (stage(name), "proc"):
                edges.setdefault(stage(name), set()).add(stage(target))
    return [f"{s} -> {', '.join(sorted(t))}" for s, t in sorted(edges.items())]


def test_the_architecture_document_draws_the_imports_as_they_are():
    with open(os.path.join(ROOT, "docs", "ARCHITECTURE.md"), encoding="utf-8") as f:
        text = f.read()
    drawn = text.split("<!-- ci-stage-imports -->")[1].split("<!-- /ci-stage-imports -->")[0]
    drawn = [line.strip() for line in drawn.strip().strip("`").strip().splitlines()]
    expected = stage_imports()
    assert drawn == expected, "docs/ARCHITECTURE.md's stage imports are stale; they are now:\n" + "\n".join(expected)
