# The licence texts of the third-party code the build puts into the package,
# installed into torch/share/licenses/<component>/ beside a VERSION file.
# ci/repair/notices.py turns them, with third_party/bundled.toml, into
# the wheel's THIRD_PARTY_NOTICES.txt and CycloneDX SBOM after repair (which
# may bundle more, say auditwheel's libgomp). Each text comes from the
# package that delivered the code, so it is the text of the version shipped.

# torch_install_license(<folder> <version> <text file> [RENAME <name>])
function(torch_install_license component version text)
  cmake_parse_arguments(PARSE_ARGV 3 _arg "" "RENAME" "")
  if(NOT EXISTS "${text}")
    message(FATAL_ERROR "licences: the licence text ${text} is missing; the package that provides "
                        "${component} no longer ships it there (third_party/licenses.cmake)")
  endif()
  if(_arg_RENAME)
    install(FILES "${text}" DESTINATION "share/licenses/${component}" RENAME "${_arg_RENAME}")
  else()
    install(FILES "${text}" DESTINATION "share/licenses/${component}")
  endif()
  file(WRITE "${PROJECT_BINARY_DIR}/licenses/${component}/VERSION" "${version}\n")
  install(FILES "${PROJECT_BINARY_DIR}/licenses/${component}/VERSION" DESTINATION "share/licenses/${component}")
endfunction()

# libscipy_openblas (OpenBLAS, LAPACK, the GCC Fortran runtime): the
# scipy_openblas32 dist-info beside the package (installed, or unpacked for
# a cross build) carries one file covering all three.
file(GLOB _openblas_license "${OPENBLAS_LIB_DIR}/../../scipy_openblas32-*.dist-info/licenses/LICENSE.txt")
if(NOT _openblas_license)
  set(_openblas_license "${OPENBLAS_LIB_DIR}/../../scipy_openblas32-<version>.dist-info/licenses/LICENSE.txt")
endif()
list(GET _openblas_license 0 _openblas_license)
torch_install_license(openblas "${OPENBLAS_VERSION}" "${_openblas_license}")

# A zig build links zig's libc++, libc++abi, libunwind (one LLVM licence)
# and compiler_rt (zig's own MIT licence) statically into every library, and
# on Windows the mingw-w64 runtime: one folder, one VERSION (zig's).
if(TORCH_ZIG)
  get_filename_component(_zig_package "${TORCH_ZIG}" DIRECTORY)
  execute_process(COMMAND "${TORCH_ZIG}" version OUTPUT_VARIABLE _zig_version OUTPUT_STRIP_TRAILING_WHITESPACE)
  torch_install_license(zig "${_zig_version}" "${_zig_package}/LICENSE")
  torch_install_license(zig "${_zig_version}" "${_zig_package}/lib/libcxx/LICENSE.TXT" RENAME LLVM-LICENSE.TXT)
  if(CMAKE_SYSTEM_NAME STREQUAL "Windows")
    torch_install_license(zig "${_zig_version}" "${_zig_package}/lib/libc/mingw/COPYING" RENAME mingw-w64-COPYING)
  endif()
endif()
