# BLAS: OpenBLAS from the scipy-openblas32 wheel, the build numpy and scipy
# ship. It is a build requirement (pyproject.toml), found through the Python
# that configures the build, and the library is installed into torch/lib next
# to libtorch_cpu, which finds it through its RUNPATH $ORIGIN. So every build
# is self-contained: a `pip install .` whose build environment is deleted
# afterwards, an editable install, and an unrepaired wheel that auditwheel
# repairs with no extra search path (docs/ARCHITECTURE.md, "OpenBLAS").
# There is no fallback: without it, configure stops.
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
find_library(OPENBLAS_LIBRARY NAMES ${OPENBLAS_LIB_NAME} PATHS "${OPENBLAS_LIB_DIR}" NO_DEFAULT_PATH REQUIRED)

add_library(torch_openblas SHARED IMPORTED)
set_target_properties(torch_openblas PROPERTIES
  IMPORTED_LOCATION "${OPENBLAS_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${OPENBLAS_INCLUDE_DIR}")

# The copy that ships: the same file under its SONAME, libscipy_openblas.so.
install(FILES "${OPENBLAS_LIBRARY}" DESTINATION lib)
