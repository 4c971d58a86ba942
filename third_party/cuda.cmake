# Finding the CUDA toolkit. It comes from outside the repository: NVIDIA's
# PyPI wheels (ci/install_cuda.sh) or a system install, named by CUDA_HOME or
# by nvcc on PATH.
if(NOT USE_CUDA)
  return()
endif()

if(DEFINED ENV{CUDA_HOME} AND NOT CMAKE_CUDA_COMPILER)
  set(CMAKE_CUDA_COMPILER "$ENV{CUDA_HOME}/bin/nvcc")
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR
    "USE_CUDA=1, but no CUDA compiler was found. Set CUDA_HOME to a CUDA toolkit "
    "(ci/install_cuda.sh VERSION installs one and prints it) or put nvcc on PATH, "
    "or build without USE_CUDA.")
endif()
message(FATAL_ERROR
  "USE_CUDA=1 found ${CMAKE_CUDA_COMPILER}, but this version has no CUDA kernels "
  "(libtorch_cuda) yet; build without USE_CUDA.")
