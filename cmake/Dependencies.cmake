# External dependencies: threads, OpenMP, Python, BLAS, the CUDA toolkit check, pybind11's headers.
find_package(Threads REQUIRED)
if(USE_OPENMP)
  find_package(OpenMP COMPONENTS CXX)
  if(NOT OpenMP_CXX_FOUND)
    message(FATAL_ERROR "USE_OPENMP=1, but ${CMAKE_CXX_COMPILER} has no OpenMP: install it (GCC's libgomp, "
                        "LLVM's libomp) or build with USE_OPENMP=0, which runs parallel_for on ATen's own thread pool")
  endif()
endif()

# The oldest CPython supported (setup.py's python_requires says the same).
set(TORCH_MIN_PYTHON 3.9)
if(BUILD_PYTHON)
  find_package(Python ${TORCH_MIN_PYTHON} REQUIRED COMPONENTS Interpreter Development.Module)
endif()
if(NOT Python_EXECUTABLE)
  find_package(Python ${TORCH_MIN_PYTHON} REQUIRED COMPONENTS Interpreter)
endif()
# The Python that runs the build tools (the code generator, the OpenBLAS
# lookup): the target Python unless told otherwise. The wheel factory points
# it at one tools environment, so that building for several Pythons shares
# one OpenBLAS and one set of native objects.
set(TORCH_TOOLS_PYTHON "${Python_EXECUTABLE}" CACHE FILEPATH "Python with pyyaml and scipy-openblas32")

include(third_party/openblas.cmake)
include(third_party/licenses.cmake)
include(third_party/cuda.cmake)
include(third_party/pybind11.cmake)
