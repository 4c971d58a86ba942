#pragma once
// Everything a kernel or an extension needs: Tensor, the operator functions
// and their methods.
#include <ATen/Functions.h>
#include <ATen/core/Generator.h>
#include <ATen/core/TensorMethods.h>
#include <ATen/core/grad_mode.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
