#pragma once
// What every generated binding file includes.
#include "csrc/python_compat.h"

#include <ATen/ATen.h>
#include <ATen/autograd/Variable.h>

#include "csrc/Exceptions.h"
#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"
#include "csrc/utils/wrap.h"
