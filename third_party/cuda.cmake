# The CUDA toolkit and the architectures to compile for. The toolkit comes
# from outside the repository: NVIDIA's PyPI wheels (ci/install_cuda.sh) or a
# system install, named by CUDA_HOME or by nvcc on PATH.
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

# TORCH_CUDA_ARCH_LIST, as PyTorch spells it ("7.5;8.0;12.0+PTX"), becomes
# CMake's CUDA_ARCHITECTURES: machine code (SASS) for each entry, plus PTX
# for those marked +PTX so that newer GPUs can JIT-compile it.
set(TORCH_CUDA_ARCH_LIST "" CACHE STRING "GPU architectures, for example 8.0;9.0+PTX (setup.py sets it)")
if(NOT TORCH_CUDA_ARCH_LIST)
  message(FATAL_ERROR "USE_CUDA=1 needs TORCH_CUDA_ARCH_LIST (setup.py passes the CUDA line's default from ci/matrix.toml)")
endif()
set(_torch_cuda_archs "")
foreach(_arch IN LISTS TORCH_CUDA_ARCH_LIST)
  if(NOT _arch MATCHES "^([0-9]+)\\.([0-9]+)(\\+PTX)?$")
    message(FATAL_ERROR "TORCH_CUDA_ARCH_LIST: '${_arch}' is not an architecture such as 8.0 or 9.0+PTX")
  endif()
  if(CMAKE_MATCH_3)
    list(APPEND _torch_cuda_archs "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
  else()
    list(APPEND _torch_cuda_archs "${CMAKE_MATCH_1}${CMAKE_MATCH_2}-real")
  endif()
endforeach()
set(CMAKE_CUDA_ARCHITECTURES "${_torch_cuda_archs}")
# libcudart comes from NVIDIA's runtime wheel at run time, not from our wheel.
set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
# Host-device lambdas for gpu_kernel, constexpr std:: helpers in device code,
# and compressed device code (smaller wheels).
string(APPEND CMAKE_CUDA_FLAGS " --extended-lambda --expt-relaxed-constexpr -Xfatbin=-compress-all")
# #186: "pointless comparison of unsigned integer with zero", from templates
# that serve every dtype (relu, abs on uint8).
string(APPEND CMAKE_CUDA_FLAGS " --diag-suppress=186")
message(STATUS "CUDA ${CMAKE_CUDA_COMPILER_VERSION}: architectures ${CMAKE_CUDA_ARCHITECTURES}")

# Where an installed wheel finds NVIDIA's runtime wheels, relative to
# site-packages/torch/lib (torch/__init__.py also preloads them by path).
if(CUDAToolkit_VERSION_MAJOR GREATER_EQUAL 13)
  set(TORCH_CUDA_WHEEL_RPATH "$ORIGIN/../../nvidia/cu${CUDAToolkit_VERSION_MAJOR}/lib")
else()
  set(TORCH_CUDA_WHEEL_RPATH "$ORIGIN/../../nvidia/cuda_runtime/lib;$ORIGIN/../../nvidia/cublas/lib")
endif()
