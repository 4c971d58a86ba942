"""setup.py: a small driver of CMake.

build_ext configures and builds the native libraries with CMake + Ninja,
installs them into the package (torch/lib, torch/include, torch/share), writes
torch/version.py, and then compiles the torch._C stub that loads them. With
TORCH_PLATFORM (a macOS or Windows platform of ci/matrix.toml) CMake builds
everything with zig, the stable-ABI _C module included, and the wheel is
tagged cp39-abi3 for that platform (tools/setup_helpers/target.py).
Settings come from the environment; docs/FACTORY.md lists them ("Build settings").
"""
import os
import shutil
import sys
import sysconfig

from setuptools import Command, Distribution, Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)
from tools.setup_helpers import cmake, cuda, env, matrix, target, version  # noqa: E402

try:
    SETTINGS = env.read()
    NAME = version.distribution_name(SETTINGS.package_name, matrix.index_name())
    TARGET = target.find(SETTINGS.platform, matrix.load()) if SETTINGS.platform else None
    if TARGET:
        SETTINGS.cmake_args += target.cmake_args(TARGET, dict(os.environ))
    CUDA = None
    if SETTINGS.use_cuda:
        cuda_home = env.find_cuda_home(version=SETTINGS.cuda_version)
        if cuda_home is None and SETTINGS.cuda_version:
            raise env.BuildSettingError(
                f"TORCH_CUDA_VERSION={SETTINGS.cuda_version} but no CUDA_HOME and no toolkit in "
                f"{' or '.join(env.cuda_home_candidates(SETTINGS.cuda_version))}: "
                f"run ci/install_cuda.sh {SETTINGS.cuda_version}"
            )
        if cuda_home is None:
            raise env.BuildSettingError(
                "USE_CUDA=1 but no CUDA toolkit was found: set CUDA_HOME (ci/install_cuda.sh VERSION prints one) "
                "or put nvcc on PATH"
            )
        CUDA = cuda.detect(cuda_home)
        if SETTINGS.cuda_version and CUDA.version != SETTINGS.cuda_version:
            raise env.BuildSettingError(
                f"TORCH_CUDA_VERSION={SETTINGS.cuda_version} but the toolkit in {cuda_home} is CUDA {CUDA.version}")
        SETTINGS.cmake_args += [f"-DTORCH_CUDA_ARCH_LIST={CUDA.arch_list}", f"-DCMAKE_CUDA_COMPILER={cuda_home}/bin/nvcc"]
except env.BuildSettingError as e:
    sys.exit(f"error: {e}")

# The variant names the wheel (+cpu, +cu130) and its build directory.
VARIANT = CUDA.label if CUDA else "cpu"
VERSION = version.full_version(VARIANT, SETTINGS.version_override)
# A CUDA wheel bundles none of NVIDIA's libraries: it depends on their wheels.
INSTALL_REQUIRES = [f'{req}; platform_system == "Linux"' for req in CUDA.runtime] if CUDA else []


class CMakeBuildExt(build_ext):
    """Native libraries first (CMake), then the _C stub (setuptools)."""

    def run(self):
        package_dir = os.path.dirname(self.get_ext_fullpath("torch._C"))
        build_dir = cmake.build_dir_for("-".join([VARIANT, *SETTINGS.sanitizers, *([TARGET.name] if TARGET else [])]))
        cmake.configure(build_dir, SETTINGS, VERSION)
        # Start from an empty lib/include/share: setuptools' build directory is
        # per Python, not per variant, and a cpu wheel built after a CUDA one
        # must not pick up the earlier libtorch_cuda.
        for sub in ("lib", "include", "share", "_C"):
            shutil.rmtree(os.path.join(package_dir, sub), ignore_errors=True)
        # A module left by a build for another target must not be packed into
        # this one's wheel: a TORCH_PLATFORM build installs its one _C module
        # (CMake) into a directory emptied of them; a native build removes the
        # zig builds' (other Pythons' stubs stay: a develop tree serves several).
        for name in os.listdir(package_dir) if os.path.isdir(package_dir) else []:
            module = name.startswith("_C.") and name.endswith((".so", ".pyd"))
            if module and (TARGET or name in ("_C.abi3.so", "_C.pyd")):
                os.remove(os.path.join(package_dir, name))
        cmake.build_and_install(build_dir, SETTINGS, package_dir)
        version.write_version_file(
            os.path.join(package_dir, "version.py"), VERSION, cuda=CUDA.version if CUDA else None, debug=SETTINGS.build_type == "Debug"
        )
        for ext in self.extensions:
            ext.library_dirs = [os.path.join(package_dir, "lib")]
        # The stub is one small C file: always rebuilt, so a change of link
        # flags (or of Python) can never leave a stale _C behind.
        self.force = True
        super().run()  # nothing for a TORCH_PLATFORM build: CMake built _C

    def build_extensions(self):
        # Some Pythons (pyenv's among them) bake -Wl,-rpath,<their lib dir>
        # into LDSHARED; the stub must carry no rpath but $ORIGIN/lib.
        self.compiler.linker_so = [
            arg for arg in self.compiler.linker_so if not arg.startswith(("-Wl,-rpath", "-Wl,-R"))
        ]
        super().build_extensions()


class NativeDistribution(Distribution):
    """A platform wheel even when setuptools compiles no extension itself."""

    def has_ext_modules(self):
        return True


class Develop(Command):
    """Builds in place and puts the checkout on sys.path with a .pth file.

    Unlike setuptools' own develop (now a detour through pip and a fresh
    isolated build), a rebuild after a C++ edit takes seconds.
    `python setup.py develop --uninstall` removes the .pth file again."""

    description = "build in place and make the checkout importable"
    user_options = [("uninstall", "u", "remove the .pth file")]
    boolean_options = ["uninstall"]

    def initialize_options(self):
        self.uninstall = False

    def finalize_options(self):
        pass

    def run(self):
        pth = os.path.join(sysconfig.get_paths()["purelib"], f"{NAME}-develop.pth")
        # The distribution's metadata beside the package, where pip and uv
        # look: without it they believe torch absent, and installing a library
        # that requires torch would put PyTorch in front of the checkout.
        info = os.path.join(ROOT, f"{NAME.replace('-', '_')}.egg-info")
        link = os.path.join(sysconfig.get_paths()["purelib"], f"{NAME}.egg-link")
        if self.uninstall:
            for path in (pth, link):
                if os.path.exists(path):
                    os.remove(path)
            shutil.rmtree(info, ignore_errors=True)
            return
        build_ext_cmd = self.reinitialize_command("build_ext", inplace=1)
        build_ext_cmd.ensure_finalized()
        self.run_command("build_ext")
        shutil.rmtree(info, ignore_errors=True)
        os.makedirs(info)
        with open(os.path.join(info, "PKG-INFO"), "w") as f:
            f.write(f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\nRequires-Python: >=3.9\n")
        with open(os.path.join(info, "top_level.txt"), "w") as f:
            f.write("torch\n")
        with open(link, "w") as f:
            f.write(ROOT + "\n.")  # setuptools' legacy develop link, which is what uv reads
        with open(pth, "w") as f:
            f.write(ROOT + "\n")
        print(f"develop: {ROOT} is on sys.path through {pth}, as {NAME} {VERSION}")


class Clean(Command):
    """Removes build/ and everything a develop build put into torch/."""

    user_options = []

    def initialize_options(self):
        pass

    def finalize_options(self):
        pass

    def run(self):
        for rel in ("build", "dist", "torch/lib", "torch/include", "torch/share", "torch/_C", "torch/version.py"):
            path = os.path.join(ROOT, rel)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        for name in os.listdir(os.path.join(ROOT, "torch")):
            if name.startswith("_C.") and name.endswith((".so", ".pyd")):
                os.remove(os.path.join(ROOT, "torch", name))


stub = Extension(
    "torch._C",
    sources=["csrc/stub.c"],
    libraries=["torch_python"],
    # No checkout path in the stub's debug info (Python's CFLAGS often add -g):
    # the same commit builds the same bytes anywhere.
    extra_compile_args=[f"-ffile-prefix-map={ROOT}=."],
    # The stub finds libtorch_python (and it the rest) in torch/lib. It calls
    # nothing in libc itself; --no-as-needed keeps libc in its NEEDED list
    # anyway, which auditwheel reads to tell glibc from musl.
    extra_link_args=["-Wl,-rpath,$ORIGIN/lib"] + (["-Wl,--no-as-needed"] if sys.platform.startswith("linux") else []),
)

with open("README.md", encoding="utf-8") as f:
    long_description = f.read()

setup(
    name=NAME,
    version=VERSION,
    description="Tensors and neural networks in Python, built PyTorch's way",
    long_description=long_description,
    long_description_content_type="text/markdown",
    # PEP 639: License-Expression, and LICENSE in the wheel's .dist-info/licenses/ and the sdist.
    license_expression="BSD-3-Clause",
    license_files=["LICENSE"],
    python_requires=">=3.9",
    install_requires=INSTALL_REQUIRES,
    packages=find_packages(include=["torch", "torch.*"]),
    # PEP 561: the package and the generated torch/_C/*.pyi stubs are typed.
    package_data={"torch": ["py.typed"]},
    ext_modules=[] if TARGET else [stub],
    distclass=NativeDistribution,
    options={"bdist_wheel": target.bdist_wheel_options(TARGET)} if TARGET else {},
    cmdclass={"build_ext": CMakeBuildExt, "develop": Develop, "clean": Clean},
    zip_safe=False,
    classifiers=[
        "Programming Language :: C++",
        "Programming Language :: Python :: 3",
        *matrix.python_classifiers(),
        "Operating System :: POSIX :: Linux",
        "Operating System :: MacOS",
        "Operating System :: Microsoft :: Windows",
        "Topic :: Scientific/Engineering :: Mathematics",
    ],
)
