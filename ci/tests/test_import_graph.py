"""No import circle among the factory's modules: ci/*.py and ci/act/*.py
import one another by bare name (each script puts its folder first on
sys.path), so every import of one of those names, deferred ones inside
functions included, is an edge; the edges form no cycle."""
import ast
import graphlib
import os

CI = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ci_modules():
    found = {}
    for folder in (CI, os.path.join(CI, "act")):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                found.setdefault(name[:-3], os.path.join(folder, name))
    return found


def ci_import_graph():
    modules = ci_modules()
    graph = {}
    for name, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
        graph[name] = {other for other in imported if other in modules and other != name}
    return graph


def test_the_graph_has_the_factory_edges():
    graph = ci_import_graph()
    assert {"build_cpython", "cibw_local", "matrix"} <= graph["factory"]
    assert "build_cpython" in graph["local_image"]


def test_no_import_circle_in_ci():
    try:
        graphlib.TopologicalSorter(ci_import_graph()).prepare()
    except graphlib.CycleError as error:
        raise AssertionError(f"an import circle in ci/: {' -> '.join(error.args[1])}") from None
