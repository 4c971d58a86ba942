# External dependencies: OpenMP, Python, BLAS, and the CUDA toolkit check.
if(USE_OPENMP)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
endif()

if(BUILD_PYTHON)
  find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
endif()
# The code generator runs on whichever Python configures the build.
if(NOT Python_EXECUTABLE)
  find_package(Python 3.9 REQUIRED COMPONENTS Interpreter)
endif()

include(third_party/openblas.cmake)
include(third_party/cuda.cmake)
