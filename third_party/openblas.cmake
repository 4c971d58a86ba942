# BLAS: OpenBLAS from the scipy-openblas32 wheel, the build numpy and scipy
# ship. It is a build requirement (pyproject.toml), found through the Python
# that configures the build, and the library is installed into torch/lib next
# to libtorch_cpu, which finds it through its RUNPATH $ORIGIN (@loader_path on
# macOS; on Windows the DLL sits beside the others). So every build is
# self-contained: a `pip install .` whose build environment is deleted
# afterwards, an editable install, and an unrepaired wheel that auditwheel,
# delocate or delvewheel repairs with no extra search path
# (docs/ARCHITECTURE.md, "OpenBLAS").
#
# A cross build cannot import the target platform's package: it names the
# unpacked package directory instead, -DTORCH_OPENBLAS_DIR=.../scipy_openblas32
# (ci/builders/cross.py unpacks the wheel for that platform there).
# There is no fallback: without it, configure stops.
set(TORCH_OPENBLAS_DIR "" CACHE PATH "an unpacked scipy_openblas32 package for the target platform (cross builds)")
if(TORCH_OPENBLAS_DIR)
  set(OPENBLAS_INCLUDE_DIR "${TORCH_OPENBLAS_DIR}/include")
  set(OPENBLAS_LIB_DIR "${TORCH_OPENBLAS_DIR}/lib")
  set(OPENBLAS_LIB_NAME scipy_openblas libscipy_openblas)
  file(STRINGS "${OPENBLAS_LIB_DIR}/pkgconfig/scipy-openblas.pc" _openblas_version REGEX "^version=")
  string(REPLACE "version=" "" OPENBLAS_VERSION "${_openblas_version}")
else()
  execute_process(
    COMMAND "${TORCH_TOOLS_PYTHON}" -c
      "import scipy_openblas32 as s; print(s.get_include_dir()); print(s.get_lib_dir()); print(s.get_library()); print(s.__version__)"
    OUTPUT_VARIABLE _openblas_out
    ERROR_VARIABLE _openblas_err
    RESULT_VARIABLE _openblas_rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _openblas_rc EQUAL 0)
    message(FATAL_ERROR
      "BLAS: the scipy-openblas32 package is not installed for ${TORCH_TOOLS_PYTHON}.\n"
      "Install it (pip install scipy-openblas32); it is a build requirement in pyproject.toml.\n"
      "${_openblas_err}")
  endif()
  string(REPLACE "\n" ";" _openblas_out "${_openblas_out}")
  list(GET _openblas_out 0 OPENBLAS_INCLUDE_DIR)
  list(GET _openblas_out 1 OPENBLAS_LIB_DIR)
  list(GET _openblas_out 2 OPENBLAS_LIB_NAME)
  list(GET _openblas_out 3 OPENBLAS_VERSION)
endif()
# On Windows this finds the import library (libscipy_openblas.lib); the DLL is beside it.
find_library(OPENBLAS_LIBRARY NAMES ${OPENBLAS_LIB_NAME} PATHS "${OPENBLAS_LIB_DIR}" NO_DEFAULT_PATH
             NO_CMAKE_FIND_ROOT_PATH REQUIRED)

# Its headers are not an interface property: only the BLAS and LAPACK
# callers see them (aten/src/ATen/CMakeLists.txt), so that the include
# directory, inside pip's temporary build environment in an isolated build,
# is not on every compile line (ccache would miss every object from one
# isolated build to the next).
add_library(torch_openblas SHARED IMPORTED)
if(WIN32)
  file(GLOB OPENBLAS_DLL "${OPENBLAS_LIB_DIR}/*openblas*.dll" "${OPENBLAS_LIB_DIR}/../bin/*openblas*.dll")
  if(NOT OPENBLAS_DLL)
    message(FATAL_ERROR "BLAS: no OpenBLAS DLL beside ${OPENBLAS_LIBRARY}")
  endif()
  list(GET OPENBLAS_DLL 0 OPENBLAS_DLL)
  set_target_properties(torch_openblas PROPERTIES IMPORTED_IMPLIB "${OPENBLAS_LIBRARY}" IMPORTED_LOCATION "${OPENBLAS_DLL}")
  # The copy that ships: the DLL, in torch/lib with the others.
  install(FILES "${OPENBLAS_DLL}" DESTINATION lib)
else()
  set_target_properties(torch_openblas PROPERTIES IMPORTED_LOCATION "${OPENBLAS_LIBRARY}")
  # The copy that ships: the same file under its install name / SONAME
  # (libscipy_openblas.dylib, libscipy_openblas.so).
  install(FILES "${OPENBLAS_LIBRARY}" DESTINATION lib)
endif()
