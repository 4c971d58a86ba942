"""No import circle in the installed torch package: the imports of its .py
files, at module level and inside functions alike (a deferred import is a
dependency too, only hidden), form no cycle, so every module can be read
after the ones it imports. A module's imports of its own parent packages do
not count: a package is already initialising when its children load.
`if TYPE_CHECKING:` blocks do not count either: they never run."""
import ast
import graphlib
import os

import torch

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))


def _modules(package="torch"):
    found = {}
    for folder, _, files in os.walk(os.path.join(PACKAGE_ROOT, package)):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, PACKAGE_ROOT)[:-3].replace(os.sep, ".")
                is_package = dotted.endswith(".__init__")
                found[dotted[: -len(".__init__")] if is_package else dotted] = (path, is_package)
    return found


def _imported_names(path, module, is_package):
    """Dotted names a module imports, anywhere in it, with `from x import y` as x and x.y."""
    names = set()

    def visit(body):
        for node in body:
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                continue
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = module.split(".") if is_package else module.split(".")[:-1]
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt) or isinstance(child, ast.excepthandler):
                    visit([child])

    with open(path, encoding="utf-8") as f:
        visit(ast.parse(f.read(), path).body)
    return names


def import_graph(package="torch"):
    modules = _modules(package)
    graph = {}
    for module, (path, is_package) in modules.items():
        targets = set()
        for name in _imported_names(path, module, is_package):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                targets.add(name)
        graph[module] = targets
    return graph


def find_cycle(graph):
    """One import circle as a list of modules (the first again at the end), or None."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return None


def test_the_walk_finds_a_circle():
    cycle = find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert cycle[0] == cycle[-1] and sorted(cycle[1:]) == ["a", "b", "c"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_walk_reads_torch():
    graph = import_graph()
    extension = graph["torch.utils.cpp_extension"]
    assert {"torch.utils._cpp_extension_toolchain", "torch.utils._cpp_extension_jit"} <= extension
    assert "torch" not in extension  # its parent package: not an edge
    assert "torch.utils.cpp_extension" not in graph["torch.utils._cpp_extension_jit"]


def test_no_import_circle_in_torch():
    assert find_cycle(import_graph()) is None
