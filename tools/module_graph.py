"""Draws docs/module-graph.svg: the native targets as CMake links them
(`cmake --graphviz`, configured with CUDA where a toolkit is installed) and
the Python layers above them, rendered by Graphviz's `dot`.

    python3 tools/module_graph.py          # needs `dot` (apt install graphviz) and pyyaml
                                           # (build/tools-venv/bin/python has it)

The Python layers come from the source: the stub torch._C links
libtorch_python (setup.py), the package `torch` imports torch._C, and each
subpackage points at torch._C when it calls into it directly, else at torch.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tools.setup_helpers import env  # noqa: E402

OUT = os.path.join(ROOT, "docs", "module-graph.svg")
SUBPACKAGES = ("autograd", "nn", "optim", "utils", "cuda", "amp", "random", "serialization", "functional")


def configure(build_dir: str) -> str:
    """Configures into build_dir with --graphviz; returns the dot file."""
    dot = os.path.join(build_dir, "targets.dot")
    cuda_home = env.find_cuda_home(version="13.0")
    args = ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", f"-DPython_EXECUTABLE={sys.executable}",
            f"-DTORCH_TOOLS_PYTHON={sys.executable}", f"--graphviz={dot}"]
    if cuda_home:
        args += ["-DUSE_CUDA=ON", f"-DCMAKE_CUDA_COMPILER={cuda_home}/bin/nvcc", "-DTORCH_CUDA_ARCH_LIST=8.0"]
    else:
        print("module_graph: no CUDA toolkit (bash ci/install_cuda.sh 13.0): drawing the cpu build only")
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return dot


def native_edges(dot_text: str) -> list[tuple[str, str, str]]:
    """(from, to, style) between named targets; system libraries by their file name."""
    labels = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', dot_text))
    edges = []
    for a, b, style in re.findall(r'"(node\d+)" -> "(node\d+)"(?: \[ style = (\w+) \])?', dot_text):
        edges.append((_short(labels[a]), _short(labels[b]), style or "solid"))
    return edges


def _short(label: str) -> str:
    name = os.path.basename(label)
    return {"torch_cpu": "libtorch_cpu", "torch_cuda": "libtorch_cuda", "torch_python": "libtorch_python",
            "c10": "libc10", "torch_openblas": "OpenBLAS (scipy-openblas32)"}.get(name, name)


def python_edges() -> list[tuple[str, str, str]]:
    edges = [("torch._C (stub)", "libtorch_python", "solid"), ("torch", "torch._C (stub)", "solid")]
    for sub in SUBPACKAGES:
        path = os.path.join(ROOT, "torch", sub)
        files = [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs if f.endswith(".py")] \
            if os.path.isdir(path) else [path + ".py"]
        text = "".join(open(f).read() for f in files if os.path.exists(f))
        target = "torch._C (stub)" if re.search(r"\b_C\.", text) else "torch"
        edges.append((f"torch.{sub}", target, "solid"))
    return edges


def render(edges: list[tuple[str, str, str]]) -> str:
    python_nodes = {a for a, _, _ in python_edges()}
    lines = ['digraph torch {', '  rankdir=TB; node [fontname="Helvetica", fontsize=11];',
             '  subgraph cluster_python { label="Python (torch/)"; style=dashed;']
    lines += [f'    "{n}" [shape=box];' for n in sorted(python_nodes)]
    lines += ['  }', '  subgraph cluster_native { label="native libraries (torch/lib)"; style=dashed;']
    native = {x for a, b, _ in edges for x in (a, b)} - python_nodes
    lines += [f'    "{n}" [shape={"doubleoctagon" if n.startswith("lib") else "ellipse"}];' for n in sorted(native)]
    lines += ['  }']
    lines += [f'  "{a}" -> "{b}" [style={style}];' for a, b, style in edges]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    if not shutil.which("dot"):
        sys.exit("module_graph: Graphviz's `dot` is not installed (apt install graphviz)")
    with tempfile.TemporaryDirectory() as tmp:
        with open(configure(os.path.join(tmp, "build"))) as f:
            edges = native_edges(f.read())
    extra = []
    if any("libtorch_cuda" in (a, b) for a, b, _ in edges):
        # Not a link: torch/_cuda_loader.py loads it at import, where present.
        extra.append(("torch", "libtorch_cuda", "dashed"))
    graph = render(edges + python_edges() + extra)
    svg = subprocess.run(["dot", "-Tsvg"], input=graph, capture_output=True, text=True, check=True).stdout
    with open(OUT, "w") as f:
        f.write(svg)
    print(f"wrote {os.path.relpath(OUT, ROOT)} ({len(edges)} native links)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
