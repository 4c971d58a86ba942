# Cross compiling with zig (the `ziglang` wheel from PyPI): clang, lld and a
# static libc++ for macOS and Windows, from any host, with no SDK. The wheel
# factory uses it for the macOS and Windows wheels, here and on GitHub.
#
#   cmake -S . -B build/x -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/zig.cmake \
#         -DTORCH_ZIG_TARGET=aarch64-macos.11.0 [-DTORCH_ZIG=/path/to/zig]
#
# TORCH_ZIG_TARGET is zig's target triple; a macOS one names the oldest macOS
# the binaries must load on (without it zig records its own newest one).
# TORCH_ZIG defaults to the zig of the ziglang package next to TORCH_TOOLS_PYTHON.
if(NOT TORCH_ZIG_TARGET)
  message(FATAL_ERROR "the zig toolchain needs -DTORCH_ZIG_TARGET, for example aarch64-macos.11.0, "
                      "x86_64-macos.10.13 or x86_64-windows-gnu")
endif()
if(NOT TORCH_ZIG)
  if(NOT TORCH_TOOLS_PYTHON)
    message(FATAL_ERROR "the zig toolchain needs -DTORCH_ZIG=<zig> or a -DTORCH_TOOLS_PYTHON with ziglang installed")
  endif()
  # zig, or zig.exe on a Windows host, beside the package's __init__.py.
  execute_process(COMMAND "${TORCH_TOOLS_PYTHON}" -c
                    "import os, ziglang; d = os.path.dirname(ziglang.__file__); print(next((os.path.join(d, n) for n in ('zig.exe', 'zig') if os.path.exists(os.path.join(d, n))), '').replace(os.sep, '/'))"
                  OUTPUT_VARIABLE TORCH_ZIG OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
  if(NOT _rc EQUAL 0 OR NOT EXISTS "${TORCH_ZIG}")
    message(FATAL_ERROR "ziglang is not installed for ${TORCH_TOOLS_PYTHON} (pip install ziglang), "
                        "or pass -DTORCH_ZIG=<path to zig>")
  endif()
endif()
# try_compile projects load this file again: hand them the same two values.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TORCH_ZIG_TARGET TORCH_ZIG)

if(TORCH_ZIG_TARGET MATCHES "^(x86_64|aarch64)-macos")
  set(CMAKE_SYSTEM_NAME Darwin)
  if(CMAKE_MATCH_1 STREQUAL "aarch64")
    set(CMAKE_SYSTEM_PROCESSOR arm64)
  else()
    set(CMAKE_SYSTEM_PROCESSOR x86_64)
  endif()
  set(CMAKE_OSX_ARCHITECTURES "${CMAKE_SYSTEM_PROCESSOR}" CACHE STRING "")
  if(TORCH_ZIG_TARGET MATCHES "macos\\.([0-9]+\\.[0-9]+)")
    set(CMAKE_OSX_DEPLOYMENT_TARGET "${CMAKE_MATCH_1}" CACHE STRING "")
  endif()
  # No SDK: zig brings libSystem's stubs and headers. CMake must not go looking for one.
  set(CMAKE_OSX_SYSROOT "" CACHE PATH "")
elseif(TORCH_ZIG_TARGET MATCHES "^x86_64-windows")
  set(CMAKE_SYSTEM_NAME Windows)
  set(CMAKE_SYSTEM_PROCESSOR AMD64)
else()
  message(FATAL_ERROR "TORCH_ZIG_TARGET=${TORCH_ZIG_TARGET}: the zig toolchain builds for aarch64-macos.X, "
                      "x86_64-macos.X and x86_64-windows-gnu")
endif()

# The compilers. On a POSIX host, small scripts that call zig with the
# target, named clang/clang++ so that ccache recognises the compiler's flags
# (ccache knows the compiler by zig's version and the target, not by the
# scripts, which name this tree's path: cmake/Options.cmake), so objects are
# reused between build directories and clones. A Windows host (GitHub's
# runner) cannot run such a script: there CMake takes zig and its mandatory
# arguments as a list, without ccache.
#
# Every compile starts from -O2 (a build type's flags come later and win):
# zig builds its runtime (compiler-rt, libc++, libunwind, MinGW's CRT) once
# per target and optimisation mode, a minute or more on one core, and CMake's
# compiler probes, which pass no flags, would otherwise have it build a debug
# copy (with UBSan's runtime) before the one the wheel links.
execute_process(COMMAND "${TORCH_ZIG}" version OUTPUT_VARIABLE TORCH_ZIG_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
set(TORCH_ZIG_ARGS -target ${TORCH_ZIG_TARGET} -O2)
if(CMAKE_HOST_WIN32)
  set(CMAKE_C_COMPILER "${TORCH_ZIG}" cc ${TORCH_ZIG_ARGS})
  set(CMAKE_CXX_COMPILER "${TORCH_ZIG}" c++ ${TORCH_ZIG_ARGS})
else()
  set(_wrappers "${CMAKE_BINARY_DIR}/zig-${TORCH_ZIG_TARGET}")
  foreach(_tool clang:cc clang++:c++ ar:ar ranlib:ranlib)
    string(REPLACE ":" ";" _tool "${_tool}")
    list(GET _tool 0 _name)
    list(GET _tool 1 _sub)
    set(_target_args "")
    if(_sub MATCHES "^c")
      list(JOIN TORCH_ZIG_ARGS " " _target_args)
      set(_target_args " ${_target_args}")
    endif()
    file(CONFIGURE OUTPUT "${_wrappers}/${_name}"
         CONTENT "#!/bin/sh\n# zig ${TORCH_ZIG_VERSION}\nexec \"${TORCH_ZIG}\" ${_sub}${_target_args} \"$@\"\n")
    file(CHMOD "${_wrappers}/${_name}" FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                                        WORLD_READ WORLD_EXECUTE)
  endforeach()
  set(CMAKE_C_COMPILER "${_wrappers}/clang")
  set(CMAKE_CXX_COMPILER "${_wrappers}/clang++")
  set(CMAKE_AR "${_wrappers}/ar" CACHE FILEPATH "")
  set(CMAKE_RANLIB "${_wrappers}/ranlib" CACHE FILEPATH "")
endif()
