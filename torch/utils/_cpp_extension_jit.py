"""torch.utils.cpp_extension.load / load_inline: extensions compiled when a
program runs, cached between runs.

The library goes to <TORCH_EXTENSIONS_DIR or ~/.cache/torch_extensions>/
py<XY>_<variant>/<name>/<name>.so, with a hash of the sources, the flags and
the torch version beside it: an unchanged extension loads without compiling,
a changed one is rebuilt (with Ninja when it is installed, else by calling
the compiler once per source). A process that already loaded <name> and then
builds a changed version gets <name>_v1, ... (operator namespaces cannot be
unloaded), as PyTorch names its module versions.

Two forms, as in PyTorch (TORCH_EXTENSION_NAME is defined to the extension's name):
- sources that register operators with TORCH_LIBRARY(TORCH_EXTENSION_NAME, m)
  build a library without Python; load() returns a module whose attributes
  are those operators;
- sources with PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) build a Python
  module for this Python (its headers, pybind11's from torch/include,
  libtorch_python), which load() imports and returns.
load_inline(functions=[...]) writes the binding itself: m.def per function
in a TORCH_LIBRARY_FRAGMENT when the sources use TORCH_LIBRARY (the
Python-free form), else a PYBIND11_MODULE, as PyTorch writes it.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import sysconfig
import types

import torch
from torch import _C, _ops
from torch.utils import _cpp_extension_toolchain as toolchain

if sys.platform != "win32":  # load() refuses to build on Windows before it would lock
    import fcntl


# name -> (hash of what built it, its module): a second load() of the same sources is free.
_loaded: dict[str, tuple[str, types.ModuleType]] = {}


def _default_root() -> str:
    root = os.environ.get("TORCH_EXTENSIONS_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "torch_extensions")
    variant = (torch.__version__.split("+", 1) + ["cpu"])[1]
    tag = "py%d%d%s_%s" % (*sys.version_info[:2], "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "", variant)
    return os.path.join(root, tag)


def _check_name(name: str) -> None:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"extension name {name!r} must be a C identifier: it names the operator namespace")


def _free_name(name: str) -> str:
    """name, or name_v1, name_v2, ... when this process already registered
    that namespace or imported that module (neither can be unloaded)."""
    candidate, version = name, 0
    while _C._ops_names(candidate) or candidate in sys.modules:
        version += 1
        candidate = f"{name}_v{version}"
    return candidate


def _compile_commands(name: str, sources: list[str], build_dir: str, cflags: list[str], cuda_cflags: list[str],
                      ldflags: list[str], includes: list[str], with_cuda: bool,
                      python_module: bool = False) -> tuple[list[tuple], list[str]]:
    """(object, source, command) per source, and the link command. A Python
    module (the pybind11 form) adds this Python's headers and libtorch_python."""
    cxx = os.environ.get("CXX", "c++")
    defines = [f"-DTORCH_EXTENSION_NAME={name}"]
    python_includes = [sysconfig.get_paths()["include"]] if python_module else []
    include_flags = [f"-I{p}" for p in includes + toolchain.include_paths("cuda" if with_cuda else "cpu") + python_includes]
    common = toolchain.common_cxx_flags()
    compiles = []
    for i, src in enumerate(sources):
        obj = os.path.join(build_dir, f"{i}_{os.path.splitext(os.path.basename(src))[0]}.o")
        if src.endswith(".cu"):
            home = toolchain._cuda_home_or_raise()
            cmd = [*toolchain.nvcc_command(home), "-c", src, "-o", obj, *defines, *include_flags, *toolchain.nvcc_flags(common),
                   *cuda_cflags]
        else:
            cmd = [cxx, "-c", src, "-o", obj, "-fPIC", "-O2", "-fvisibility=hidden", *common, *defines,
                   *include_flags, *cflags]
        compiles.append((obj, src, cmd))
    libs = ["-lc10", "-ltorch_cpu"] + (["-ltorch_python"] if python_module else [])
    lib_dirs = toolchain.library_paths("cuda" if with_cuda else "cpu")
    if with_cuda:
        libs += ["-ltorch_cuda", "-lcudart"]
    # An absolute RPATH is right for a library built for this machine's torch.
    link = [cxx, "-shared", "-o", os.path.join(build_dir, f"{name}.so"), *[c[0] for c in compiles],
            *[f"-L{d}" for d in lib_dirs], *[f"-Wl,-rpath,{d}" for d in lib_dirs], *libs, *ldflags]
    return compiles, link


def _build(compiles: list[tuple], link: list[str], build_dir: str, verbose: bool) -> None:
    ninja = toolchain._ninja()
    if ninja:
        lines = ["ninja_required_version = 1.3", ""]
        for i, (obj, src, cmd) in enumerate(compiles):
            lines += [f"rule compile_{i}", f"  command = {toolchain._quote(cmd)}", f"build {obj}: compile_{i} {src}", ""]
        lines += ["rule link", f"  command = {toolchain._quote(link)}",
                  f"build {link[link.index('-o') + 1]}: link {' '.join(c[0] for c in compiles)}", ""]
        with open(os.path.join(build_dir, "build.ninja"), "w") as f:
            f.write("\n".join(lines))
        steps = [[ninja, "-C", build_dir] + ([] if verbose else ["--quiet"])]
    else:
        steps = [c[2] for c in compiles] + [link]
    for cmd in steps:
        if verbose:
            print(toolchain._quote(cmd), file=sys.stderr)
        proc = subprocess.run(cmd, cwd=build_dir, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Error building extension '{os.path.basename(build_dir)}':\n"
                               f"{proc.stdout}{proc.stderr}".rstrip())


def _import_module(name: str, path: str) -> types.ModuleType:
    """Imports the pybind11 module built at `path` as `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


def _module(name: str, path: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = path
    for op in _C._ops_names(name):
        setattr(module, op, getattr(getattr(torch.ops, name), op))
    return module


def load(name: str, sources, extra_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
         extra_include_paths=None, build_directory=None, verbose=False, with_cuda=None, is_python_module=True,
         is_standalone=False, keep_intermediates=True):
    """Compiles `sources` into a library (cached), loads it and returns a
    module with the operators it registered under TORCH_EXTENSION_NAME
    (is_python_module=False: returns None; is_standalone=True: only builds
    and returns the library's path)."""
    _check_name(name)
    toolchain._require_linux("load")
    sources = [os.path.abspath(s) for s in ([sources] if isinstance(sources, str) else list(sources))]
    if not sources:
        raise ValueError("load(): no sources")
    contents = []
    for src in sources:
        if not os.path.exists(src):
            raise FileNotFoundError(f"load(): no such source file: {src}")
        with open(src, "rb") as f:
            contents.append(f.read())
    python_module = any(b"PYBIND11_MODULE" in content for content in contents)
    if with_cuda is None:
        with_cuda = any(s.endswith((".cu", ".cuh")) for s in sources)
    cflags, cuda_cflags = list(extra_cflags or []), list(extra_cuda_cflags or [])
    ldflags, includes = list(extra_ldflags or []), list(extra_include_paths or [])

    digest = hashlib.sha256()
    for part in [torch.__version__, os.environ.get("CXX", "c++"), os.environ.get("TORCH_CUDA_ARCH_LIST", ""),
                 repr((cflags, cuda_cflags, ldflags, includes, with_cuda, python_module))]:
        digest.update(part.encode())
    for content in contents:
        digest.update(content)
    for inc in includes:  # headers of the extension's own include directories
        for dirpath, _, files in sorted(os.walk(inc)):
            for f in sorted(files):
                digest.update(open(os.path.join(dirpath, f), "rb").read())
    stamp = digest.hexdigest()
    if not is_standalone and _loaded.get(name, (None,))[0] == stamp:
        return _loaded[name][1] if is_python_module else None

    ext_name = name if is_standalone else _free_name(name)
    build_dir = build_directory or os.path.join(_default_root(), ext_name)
    os.makedirs(build_dir, exist_ok=True)
    library = os.path.join(build_dir, f"{ext_name}.so")
    with open(os.path.join(build_dir, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building the same extension waits here
        stamp_file = os.path.join(build_dir, "sources.sha256")
        current = open(stamp_file).read() if os.path.exists(stamp_file) else None
        if current != stamp or not os.path.exists(library):
            if verbose:
                print(f"Building extension module {ext_name} in {build_dir}", file=sys.stderr)
            if with_cuda:  # nvcc's version, asked only when it is about to compile
                toolchain._check_cuda_version(toolchain._cuda_home_or_raise())
            compiles, link = _compile_commands(ext_name, sources, build_dir, cflags, cuda_cflags, ldflags, includes,
                                               with_cuda, python_module)
            _build(compiles, link, build_dir, verbose)
            with open(stamp_file, "w") as f:
                f.write(stamp)
        elif verbose:
            print(f"Loading extension module {ext_name} from {build_dir} (up to date)", file=sys.stderr)
    if is_standalone:
        return library
    if python_module:
        module = _import_module(ext_name, library)
        _ops.raise_registration_errors(library)  # TORCH_LIBRARY blocks may sit beside the module
    else:
        torch.ops.load_library(library)
        module = _module(ext_name, library)
    _loaded[name] = (stamp, module)
    return module if is_python_module else None


def load_inline(name: str, cpp_sources, cuda_sources=None, functions=None, extra_cflags=None,
                extra_cuda_cflags=None, extra_ldflags=None, extra_include_paths=None, build_directory=None,
                verbose=False, with_cuda=None, is_python_module=True, with_pytorch_error_handling=True,
                keep_intermediates=True, use_pch=False):
    """load() from source strings. `functions` (a name, a list, or a dict of
    name -> docstring) are registered as operators of the extension, with
    their schema inferred from the C++ signatures; the returned module has them."""
    _check_name(name)
    toolchain._require_linux("load_inline")
    cpp = [cpp_sources] if isinstance(cpp_sources, str) else list(cpp_sources)
    cuda = [cuda_sources] if isinstance(cuda_sources, str) else list(cuda_sources or [])
    text = "#include <torch/extension.h>\n\n" + "\n".join(cpp)
    if functions:
        docs = dict(functions) if isinstance(functions, dict) else {
            fn: "" for fn in ([functions] if isinstance(functions, str) else list(functions))}
        if "TORCH_LIBRARY" in text:  # the Python-free form: operators of the extension's namespace
            defs = "".join(f'  m.def("{fn}", &{fn});\n' for fn in docs)
            text += f"\n\nTORCH_LIBRARY_FRAGMENT(TORCH_EXTENSION_NAME, m) {{\n{defs}}}\n"
        else:  # PyTorch's: a pybind11 module
            defs = "".join(f'  m.def("{fn}", &{fn}, {_cpp_string(doc or fn)});\n' for fn, doc in docs.items())
            text += f"\n\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{\n{defs}}}\n"
    build_dir = build_directory or os.path.join(_default_root(), name + "_inline_sources")
    os.makedirs(build_dir, exist_ok=True)
    sources = [_write_if_changed(os.path.join(build_dir, "main.cpp"), text)]
    if cuda:
        cu = "#include <torch/extension.h>\n#include <cuda_runtime.h>\n\n" + "\n".join(cuda)
        sources.append(_write_if_changed(os.path.join(build_dir, "cuda.cu"), cu))
    return load(name, sources, extra_cflags, extra_cuda_cflags, extra_ldflags, extra_include_paths,
                build_directory, verbose, with_cuda if with_cuda is not None else bool(cuda), is_python_module)


def _cpp_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _write_if_changed(path: str, text: str) -> str:
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    return path
