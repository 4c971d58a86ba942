# pybind11's headers, from the pybind11 wheel (a build requirement), installed
# into torch/include as PyTorch ships them: extensions of the pybind11 form
# (PYBIND11_MODULE with torch::Tensor arguments, torch/python.h) compile
# against the torch they build for, with nothing else to install.
# torch itself does not use pybind11.
execute_process(
  COMMAND "${TORCH_TOOLS_PYTHON}" -c "import os, pybind11; print(pybind11.get_include()); print(pybind11.__version__)"
  OUTPUT_VARIABLE _pybind11_out RESULT_VARIABLE _pybind11_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _pybind11_rc EQUAL 0)
  message(FATAL_ERROR "pybind11 is not installed for ${TORCH_TOOLS_PYTHON}: it is a build requirement "
                      "(pip install -r requirements-build.txt); torch ships its headers for extensions")
endif()
string(REPLACE "\n" ";" _pybind11_out "${_pybind11_out}")
list(GET _pybind11_out 0 PYBIND11_INCLUDE_DIR)
list(GET _pybind11_out 1 PYBIND11_VERSION)
install(DIRECTORY "${PYBIND11_INCLUDE_DIR}/pybind11" DESTINATION include)
# Its licence beside the headers (BSD-3-Clause).
file(GLOB _pybind11_license "${PYBIND11_INCLUDE_DIR}/../../pybind11-*.dist-info/licenses/LICENSE"
                            "${PYBIND11_INCLUDE_DIR}/../../pybind11-*.dist-info/LICENSE")
if(_pybind11_license)
  list(GET _pybind11_license 0 _pybind11_license)
  install(FILES "${_pybind11_license}" DESTINATION include/pybind11 RENAME LICENSE)
endif()
