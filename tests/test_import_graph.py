"""No import circle in the installed torch package: the imports of its .py
files, at module level and inside functions alike (a deferred import is a
dependency too, only hidden), form no cycle, so every module can be read
after the ones it imports. A module's imports of its own parent packages do
not count: a package is already initialising when its children load.
`if TYPE_CHECKING:` blocks do not count either: they never run."""
import ast
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


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walk_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_walk_reads_torch():
    graph = import_graph()
    extension = graph["torch.utils.cpp_extension"]
    assert {"torch.utils._cpp_extension_toolchain", "torch.utils._cpp_extension_jit"} <= extension
    assert "torch" not in extension  # its parent package: not an edge
    assert "torch.utils.cpp_extension" not in graph["torch.utils._cpp_extension_jit"]


def test_no_import_circle_in_torch():
    assert cycles(import_graph()) == []
