# The CPU kernels, once per capability (PyTorch's scheme). Each file under
# aten/src/ATen/native/cpu/ is compiled once per capability, each copy in an
# object library of its own (torch_cpu_kernels_<CAP>) that defines
# CPU_CAPABILITY (DEFAULT, AVX2, AVX512) and CPU_CAPABILITY_<CAP> and adds
# that capability's flags. (A precompiled header per copy saved a second of
# a cold build here and would cost ccache its hits.) The copies
# build in parallel, and touching one kernel file rebuilds only its copies.
# native/DispatchStub.h files each copy's kernels under its capability's
# slot; native/CpuCapability.cpp picks the slot at run time.
#
# torch_cpu_kernel_objects(<out_var> <sources...>): the copies' objects
# (compiled with TORCH_CPU_KERNEL_OPTIONS, then the capability's flags),
# DEFAULT's first. List them after every baseline source when linking: an
# inline function that a wide copy emits out of line (a COMDAT) then
# resolves to the baseline copy's definition wherever one exists, so no
# AVX2 or AVX-512 instruction runs on a CPU that was not chosen for it
# (ci/check/cpu_code.py checks the result).

set(TORCH_CPU_CAPABILITIES DEFAULT)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|x64)$")
  list(APPEND TORCH_CPU_CAPABILITIES AVX2 AVX512)
endif()
# A sanitizer build runs only on the machine that built it (with libasan
# preloaded: ci/test_sanitizers.sh), so it compiles the levels this CPU can
# run and no others: a copy it could never pick would be instrumented for
# nothing (instrumented kernels compile 2-3 times slower). native/DispatchStub.h
# falls back to the next level down when a slot is empty.
if((USE_ASAN OR USE_UBSAN) AND "AVX512" IN_LIST TORCH_CPU_CAPABILITIES AND EXISTS /proc/cpuinfo)
  file(STRINGS /proc/cpuinfo _torch_cpu_flags LIMIT_COUNT 1 REGEX "^flags")
  foreach(_flag avx512f avx512bw avx512vl avx512dq)
    if(NOT _torch_cpu_flags MATCHES " ${_flag}( |$)")
      list(REMOVE_ITEM TORCH_CPU_CAPABILITIES AVX512)
    endif()
  endforeach()
  foreach(_flag avx2 fma f16c)
    if(NOT _torch_cpu_flags MATCHES " ${_flag}( |$)")
      list(REMOVE_ITEM TORCH_CPU_CAPABILITIES AVX2 AVX512)
    endif()
  endforeach()
  message(STATUS "Sanitizer build: kernels for ${TORCH_CPU_CAPABILITIES} (what this CPU runs)")
endif()
# Kernel files whose calls always take the DEFAULT copy, so wide copies of
# them would be dead code: their stubs receive an integer index tensor
# (Indexing), or spend their time in the random generator or OpenBLAS
# (Distribution, LinearAlgebra).
set(TORCH_CPU_DEFAULT_ONLY IndexingKernel.cpp DistributionKernels.cpp LinearAlgebraKernel.cpp)

# Each capability's flags: what native/CpuCapability.cpp checks for it.
if(MSVC)
  set(TORCH_CPU_FLAGS_DEFAULT "")
  set(TORCH_CPU_FLAGS_AVX2 "/arch:AVX2")
  set(TORCH_CPU_FLAGS_AVX512 "/arch:AVX512")
else()
  set(TORCH_CPU_FLAGS_DEFAULT "")
  set(TORCH_CPU_FLAGS_AVX2 "-mavx2;-mfma;-mf16c")
  set(TORCH_CPU_FLAGS_AVX512 "-mavx2;-mfma;-mf16c;-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq")
endif()

function(torch_cpu_kernel_objects out_var)
  set(_objects "")
  foreach(_cap IN LISTS TORCH_CPU_CAPABILITIES)
    set(_sources "")
    foreach(_src IN LISTS ARGN)
      get_filename_component(_name "${_src}" NAME)
      if(_cap STREQUAL "DEFAULT" OR NOT _name IN_LIST TORCH_CPU_DEFAULT_ONLY)
        list(APPEND _sources "${_src}")
      endif()
    endforeach()
    set(_target torch_cpu_kernels_${_cap})
    add_library(${_target} OBJECT ${_sources})
    add_dependencies(${_target} generate_operators)
    target_compile_definitions(${_target} PRIVATE TORCH_BUILD_MAIN_LIB CPU_CAPABILITY=${_cap} CPU_CAPABILITY_${_cap})
    target_compile_options(${_target} PRIVATE ${TORCH_CPU_KERNEL_OPTIONS} ${TORCH_CPU_FLAGS_${_cap}})
    target_include_directories(${_target} PRIVATE "${PROJECT_SOURCE_DIR}/aten/src" "${GENERATED_DIR}/aten")
    target_link_libraries(${_target} PRIVATE c10)  # its include directories and definitions
    list(APPEND _objects $<TARGET_OBJECTS:${_target}>)
  endforeach()
  set(${out_var} ${_objects} PARENT_SCOPE)
endfunction()
