# Every build setting, declared once. setup.py reads the option() lines of
# this file to know which USE_*/BUILD_* environment variables exist, and
# rejects any other (a typo must not silently do nothing).
option(USE_CUDA "Build libtorch_cuda (needs a CUDA toolkit: CUDA_HOME or nvcc on PATH)" OFF)
option(USE_OPENMP "Run large CPU kernels on several threads with OpenMP" ON)
option(USE_CCACHE "Compile through ccache when it is installed" ON)
option(BUILD_PYTHON "Build libtorch_python, the CPython binding" ON)
option(USE_PYTHON_LIMITED_API "Build libtorch_python on CPython's stable ABI: one build serves every Python 3.9+ (off for free-threaded or debug Pythons)" ON)

if(USE_CCACHE)
  find_program(CCACHE_PROGRAM ccache)
  if(CCACHE_PROGRAM)
    set(CMAKE_C_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
    set(CMAKE_CUDA_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  endif()
endif()
