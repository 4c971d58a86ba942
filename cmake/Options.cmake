# Every build setting, declared once. setup.py reads the option() lines of
# this file to know which USE_*/BUILD_* environment variables exist, and
# rejects any other (a typo must not silently do nothing).
option(USE_CUDA "Build libtorch_cuda (needs a CUDA toolkit: CUDA_HOME or nvcc on PATH)" OFF)
option(USE_OPENMP "Run large CPU kernels on several threads with OpenMP (OFF: ATen's own thread pool, as the zig-built macOS and Windows wheels do)" ON)
option(USE_CCACHE "Compile through ccache when it is installed" ON)
option(BUILD_PYTHON "Build libtorch_python, the CPython binding" ON)
option(USE_ASAN "Build with AddressSanitizer and LeakSanitizer (CPU builds; run with libasan preloaded: ci/test_sanitizers.sh)" OFF)
option(USE_UBSAN "Build with UndefinedBehaviorSanitizer (CPU builds; ci/test_sanitizers.sh fails on any report)" OFF)
option(USE_PYTHON_LIMITED_API "Build libtorch_python on CPython's stable ABI: one build serves every Python 3.9+ (off for free-threaded or debug Pythons)" ON)

if((USE_ASAN OR USE_UBSAN) AND USE_CUDA)
  message(FATAL_ERROR "USE_ASAN/USE_UBSAN are for CPU builds: nvcc's device code cannot be instrumented; set USE_CUDA=0")
endif()
set(_torch_sanitizers "")
if(USE_ASAN)
  list(APPEND _torch_sanitizers address)
endif()
if(USE_UBSAN)
  # vptr: its checks follow type_info across shared libraries and report
  # false positives for classes with hidden visibility; the rest is on.
  list(APPEND _torch_sanitizers undefined)
  add_compile_options(-fno-sanitize=vptr)
endif()
if(_torch_sanitizers)
  list(JOIN _torch_sanitizers "," _torch_sanitize_list)
  # -O1, as sanitizer builds usually are: much quicker to compile than -O3,
  # and the stacks in reports stay readable.
  add_compile_options(-fsanitize=${_torch_sanitize_list} -fno-omit-frame-pointer -g1 -O1)
  add_link_options(-fsanitize=${_torch_sanitize_list})
endif()

# (Not with zig on a Windows host, where the compiler is zig plus arguments.)
if(USE_CCACHE AND NOT (TORCH_ZIG_TARGET AND CMAKE_HOST_WIN32))
  find_program(CCACHE_PROGRAM ccache)
  if(CCACHE_PROGRAM)
    # libtorch_cpu and libtorch_python compile with precompiled headers:
    # ccache caches those compiles only with this sloppiness (and, for GCC's
    # -include of the header, -fpch-preprocess), as its manual says.
    set(_ccache_env "CCACHE_SLOPPINESS=pch_defines,time_macros")
    add_compile_options("$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-fpch-preprocess>")
    if(TORCH_ZIG_TARGET)
      # The zig toolchain's compilers are scripts written anew in each build
      # directory, naming its tree: ccache knows the compiler by zig's
      # version and the arguments the scripts add instead.
      list(JOIN TORCH_ZIG_ARGS "_" _zig_args)
      list(APPEND _ccache_env "CCACHE_COMPILERCHECK=string:zig-${TORCH_ZIG_VERSION}${_zig_args}")
    endif()
    set(_launcher "${CMAKE_COMMAND};-E;env;${_ccache_env};${CCACHE_PROGRAM}")
    set(CMAKE_C_COMPILER_LAUNCHER "${_launcher}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${_launcher}")
    # nvcc comes from NVIDIA's wheels, installed anew in each checkout's
    # build/ (ci/install_cuda.sh): ccache's default check, the compiler's
    # mtime, would miss every time, so it hashes nvcc's content. The host
    # compiler's prefix maps reach nvcc as -Xcompiler=..., which ccache does
    # not know to rewrite like -ffile-prefix-map itself: they name the
    # checkout, and map it to the same "." and "build" wherever it is, so
    # they stay out of the hash.
    set(CMAKE_CUDA_COMPILER_LAUNCHER "${CMAKE_COMMAND};-E;env;${_ccache_env};CCACHE_COMPILERCHECK=content"
        "CCACHE_IGNOREOPTIONS=-Xcompiler=-ffile-prefix-map=*;${CCACHE_PROGRAM}")
  endif()
endif()
