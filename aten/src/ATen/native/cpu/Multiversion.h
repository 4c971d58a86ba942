#pragma once
// TORCH_CPU_MULTIVERSION: whether this build can hold x86-64 code for CPUs
// newer than its baseline and pick it at run time (GCC's target attributes,
// target_clones and __builtin_cpu_supports, on Linux). VecMath's clones, its
// AVX-512 kernels and the pointwise loops' wide copies all test this one
// macro; elsewhere (aarch64, macOS, clang) only the portable code is built.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define TORCH_CPU_MULTIVERSION 1
#else
#define TORCH_CPU_MULTIVERSION 0
#endif
