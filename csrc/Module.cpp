// initModule: builds torch._C. The tiny _C extension (stub.c) calls this, so
// all binding code lives in libtorch_python and the extension itself is a
// few bytes per Python version.
#include "csrc/python_compat.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/detail/CUDAHooks.h>
#include <ATen/native/CpuCapability.h>
#include <c10/core/CPUBlockCache.h>

#include <chrono>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "csrc/Exceptions.h"
#include "csrc/python_device.h"
#include "csrc/python_dtype.h"
#include "csrc/python_size.h"
#include "csrc/python_ops.h"
#include "csrc/python_tensor.h"
#include "csrc/tensor_new.h"
#include "csrc/utils/python_arg_parser.h"

#ifndef TORCH_VERSION
#error "TORCH_VERSION must be defined by the build"
#endif

namespace torch {
namespace {

PyObject* set_tensor_class(PyObject*, PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), THPVariableBaseType)) {
    PyErr_SetString(PyExc_TypeError, "_set_tensor_class expects a subclass of torch._C.TensorBase");
    return nullptr;
  }
  Py_INCREF(cls);
  THPVariableClass = reinterpret_cast<PyTypeObject*>(cls);
  Py_RETURN_NONE;
}

// Any Python int: negative seeds and seeds past 2**63 wrap like PyTorch's.
uint64_t unpack_seed(PyObject* seed) {
  TORCH_CHECK_TYPE(is_int_like(seed), "manual_seed expected an int, got ", python_type_name(seed));
  const unsigned long long s = PyLong_AsUnsignedLongLongMask(seed);
  if (s == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw python_error();
  return s;
}

PyObject* manual_seed(PyObject*, PyObject* seed) {
  HANDLE_TH_ERRORS
  const uint64_t s = unpack_seed(seed);
  at::manual_seed(s);
  at::detail::cuda_hooks().manual_seed(s);  // torch.manual_seed seeds every device, as in PyTorch
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* initial_seed(PyObject*, PyObject*) {
  return PyLong_FromUnsignedLongLong(at::default_cpu_generator().seed());
}

// The default CPU generator's state as bytes (torch.get_rng_state wraps them in a uint8 tensor).
PyObject* get_rng_state(PyObject*, PyObject*) {
  HANDLE_TH_ERRORS
  auto& gen = at::default_cpu_generator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  const std::string state = gen.state();
  return PyBytes_FromStringAndSize(state.data(), static_cast<Py_ssize_t>(state.size()));
  END_HANDLE_TH_ERRORS
}

PyObject* set_rng_state(PyObject*, PyObject* state) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(PyBytes_Check(state), "_set_rng_state expects bytes, got ", python_type_name(state));
  auto& gen = at::default_cpu_generator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  char* data = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(state, &data, &size) < 0) throw python_error();
  gen.set_state(std::string(data, static_cast<size_t>(size)));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* get_num_threads(PyObject*, PyObject*) { return PyLong_FromLong(at::get_num_threads()); }

PyObject* set_num_threads(PyObject*, PyObject* n) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(is_int_like(n), "set_num_threads expected an int, got ", python_type_name(n));
  const long long v = PyLong_AsLongLong(n);
  if (v == -1 && PyErr_Occurred()) throw python_error();
  TORCH_CHECK(v > 0 && v <= std::numeric_limits<int>::max(), "set_num_threads expects a positive integer, got ", v);
  at::set_num_threads(static_cast<int>(v));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

// A test probe of parallel_for (tests/test_threads.py): runs `items` items
// with grain 1, each chunk pausing long enough that every thread asked for
// takes one, and returns how many distinct threads ran chunks; with fail set,
// the chunk holding the last item throws, to check that the error reaches the caller.
PyObject* parallel_probe(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  long long items = 0;
  int fail = 0;
  if (!PyArg_ParseTuple(args, "L|p", &items, &fail)) return nullptr;
  TORCH_CHECK(items > 0 && items <= (1 << 20), "_parallel_probe: items must be in [1, 2**20], got ", items);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  {
    torch::MaybeGILRelease no_gil(true);
    at::parallel_for(0, items, 1, [&](int64_t begin, int64_t end) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      {
        std::lock_guard<std::mutex> lock(mutex);
        seen.insert(std::this_thread::get_id());
      }
      TORCH_CHECK(!(fail && end == items), "_parallel_probe: the chunk [", begin, ", ", end, ") failed on purpose");
    });
  }
  return PyLong_FromSize_t(seen.size());
  END_HANDLE_TH_ERRORS
}

PyObject* get_cpu_capability(PyObject*, PyObject*) {
  return PyUnicode_FromString(at::native::cpu_capability_name());
}

PyObject* get_default_dtype(PyObject*, PyObject*) {
  PyObject* d = THPDtype_Get(c10::get_default_dtype());
  Py_INCREF(d);
  return d;
}

PyObject* set_default_dtype(PyObject*, PyObject* d) {
  HANDLE_TH_ERRORS
  c10::set_default_dtype(to_scalar_type(d));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* promote_types(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "OO", &a, &b)) return nullptr;
  PyObject* r = THPDtype_Get(c10::promoteTypes(to_scalar_type(a), to_scalar_type(b)));
  Py_INCREF(r);
  return r;
  END_HANDLE_TH_ERRORS
}

// torch.cuda's native half: every answer comes from the CUDA hooks, so a CPU
// build answers "no CUDA" and a CUDA build answers from libtorch_cuda.
const at::detail::CUDAHooksInterface& cuda() { return at::detail::cuda_hooks(); }

int device_index(PyObject* device) {
  TORCH_CHECK_TYPE(is_int_like(device), "expected a CUDA device index (int), got ", python_type_name(device));
  const long index = PyLong_AsLong(device);
  if (index == -1 && PyErr_Occurred()) throw python_error();
  return static_cast<int>(index);
}

PyObject* cuda_is_built(PyObject*, PyObject*) { return PyBool_FromLong(cuda().compiled_with_cuda()); }
PyObject* cuda_device_count(PyObject*, PyObject*) { return PyLong_FromLong(cuda().device_count()); }

PyObject* cuda_current_device(PyObject*, PyObject*) {
  HANDLE_TH_ERRORS
  return PyLong_FromLong(cuda().current_device());
  END_HANDLE_TH_ERRORS
}

PyObject* cuda_set_device(PyObject*, PyObject* device) {
  HANDLE_TH_ERRORS
  cuda().set_device(device_index(device));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* cuda_synchronize(PyObject*, PyObject* device) {
  HANDLE_TH_ERRORS
  cuda().synchronize(device_index(device));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* cuda_device_name(PyObject*, PyObject* device) {
  HANDLE_TH_ERRORS
  const std::string name = cuda().device_name(device_index(device));
  return PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
  END_HANDLE_TH_ERRORS
}

PyObject* cuda_memory_allocated(PyObject*, PyObject* device) {
  HANDLE_TH_ERRORS
  return PyLong_FromLongLong(cuda().memory_allocated(device_index(device)));
  END_HANDLE_TH_ERRORS
}

// (live TensorImpls, live CPU allocator blocks): what tests/test_leaks.py
// watches for growth across loops of common work.
PyObject* live_objects(PyObject*, PyObject*) {
  return Py_BuildValue("(LL)", static_cast<long long>(c10::TensorImpl::live_count()),
                       static_cast<long long>(c10::cpu_allocator_live_blocks()));
}

// (blocks, bytes) the CPU allocator keeps for reuse, and emptying that cache.
PyObject* cpu_cache_info(PyObject*, PyObject*) {
  const auto stats = c10::cpu_block_cache::stats();
  return Py_BuildValue("(LL)", static_cast<long long>(stats.blocks), static_cast<long long>(stats.bytes));
}

PyObject* cpu_empty_cache(PyObject*, PyObject*) {
  c10::cpu_block_cache::empty();
  Py_RETURN_NONE;
}

PyObject* cuda_manual_seed(PyObject*, PyObject* seed) {
  HANDLE_TH_ERRORS
  cuda().manual_seed(unpack_seed(seed));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* cuda_arch_list(PyObject*, PyObject*) {
  const std::string archs = cuda().arch_list();
  return PyUnicode_FromStringAndSize(archs.data(), static_cast<Py_ssize_t>(archs.size()));
}

PyObject* cuda_empty_cache(PyObject*, PyObject*) {
  HANDLE_TH_ERRORS
  cuda().empty_cache();
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyMethodDef module_methods[] = {
    {"_set_tensor_class", set_tensor_class, METH_O, nullptr},
    {"manual_seed", manual_seed, METH_O, "Seeds the default CPU generator."},
    {"initial_seed", initial_seed, METH_NOARGS, nullptr},
    {"_get_rng_state", get_rng_state, METH_NOARGS, nullptr},
    {"_set_rng_state", set_rng_state, METH_O, nullptr},
    {"get_num_threads", get_num_threads, METH_NOARGS, nullptr},
    {"set_num_threads", set_num_threads, METH_O, nullptr},
    {"_parallel_probe", parallel_probe, METH_VARARGS, nullptr},
    {"_get_cpu_capability", get_cpu_capability, METH_NOARGS, nullptr},
    {"get_default_dtype", get_default_dtype, METH_NOARGS, nullptr},
    {"set_default_dtype", set_default_dtype, METH_O, nullptr},
    {"promote_types", promote_types, METH_VARARGS, nullptr},
    {"_cuda_is_built", cuda_is_built, METH_NOARGS, nullptr},
    {"_cuda_device_count", cuda_device_count, METH_NOARGS, nullptr},
    {"_cuda_current_device", cuda_current_device, METH_NOARGS, nullptr},
    {"_cuda_set_device", cuda_set_device, METH_O, nullptr},
    {"_cuda_synchronize", cuda_synchronize, METH_O, nullptr},
    {"_cuda_device_name", cuda_device_name, METH_O, nullptr},
    {"_cuda_memory_allocated", cuda_memory_allocated, METH_O, nullptr},
    {"_live_objects", live_objects, METH_NOARGS, nullptr},
    {"_cpu_cache_info", cpu_cache_info, METH_NOARGS, nullptr},
    {"_cpu_empty_cache", cpu_empty_cache, METH_NOARGS, nullptr},
    {"_cuda_manual_seed", cuda_manual_seed, METH_O, nullptr},
    {"_cuda_arch_list", cuda_arch_list, METH_NOARGS, "TORCH_CUDA_ARCH_LIST of libtorch_cuda, space-separated (\"\" without CUDA)."},
    {"_cuda_empty_cache", cuda_empty_cache, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

PyMethodDef tensor_function[] = {
    {"tensor", (PyCFunction)(void (*)(void))THPTorch_tensor, METH_FASTCALL | METH_KEYWORDS,
     "tensor(data, *, dtype=None, device=None) -> Tensor"},
    {nullptr, nullptr, 0, nullptr},
};

struct PyModuleDef torch_module = {PyModuleDef_HEAD_INIT, "torch._C", "The native core of torch.", -1, module_methods};
struct PyModuleDef functions_module = {PyModuleDef_HEAD_INIT, "torch._C._VariableFunctions",
                                       "torch.<op> functions generated from native_functions.yaml.", -1, nullptr};
struct PyModuleDef nn_module = {PyModuleDef_HEAD_INIT, "torch._C._nn",
                                "The ops torch.nn.functional calls (python_module: nn in native_functions.yaml).",
                                -1, nullptr};
struct PyModuleDef linalg_module = {PyModuleDef_HEAD_INIT, "torch._C._linalg",
                                    "The ops torch.linalg exposes (python_module: linalg in native_functions.yaml).",
                                    -1, nullptr};

}  // namespace
}  // namespace torch

extern "C" TORCH_PYTHON_API PyObject* initModule() {
  using namespace torch;
  PyObject* module = PyModule_Create(&torch_module);
  if (!module) return nullptr;
#ifdef Py_GIL_DISABLED
  // A free-threaded Python keeps running without the GIL after this import:
  // the binding holds no state that Python threads share unguarded (tensor
  // objects never change their at::Tensor, the autograd graph and leaves,
  // the generators and the allocators lock; tests/test_threads.py hammers
  // them from many threads).
  PyUnstable_Module_SetGIL(module, Py_MOD_GIL_NOT_USED);
#endif
  // Each step may fail with a Python error set; stop at the first.
  for (auto init : {init_exceptions, init_dtypes, init_device_type, init_size_type, init_tensor_type, init_interop, init_autograd, init_ops}) {
    init(module);
    if (PyErr_Occurred()) {
      Py_DECREF(module);
      return nullptr;
    }
  }

  PyObject* functions = PyModule_Create(&functions_module);
  if (!functions || PyModule_AddFunctions(functions, generated_torch_functions()) < 0 ||
      PyModule_AddFunctions(functions, tensor_function) < 0) {
    return nullptr;
  }
  PyModule_AddObject(module, "_VariableFunctions", functions);
  PyObject* nn = PyModule_Create(&nn_module);
  if (!nn || PyModule_AddFunctions(nn, generated_nn_functions()) < 0) return nullptr;
  PyModule_AddObject(module, "_nn", nn);
  PyObject* linalg = PyModule_Create(&linalg_module);
  if (!linalg || PyModule_AddFunctions(linalg, generated_linalg_functions()) < 0) return nullptr;
  PyModule_AddObject(module, "_linalg", linalg);
  PyModule_AddStringConstant(module, "_version", TORCH_VERSION);
  // The libstdc++ ABI the native libraries use: extensions must compile with
  // the same. libc++ (the macOS and Windows builds) has only the one
  // std::string, the C++11 one, so those say 1, as PyTorch's wheels do.
#ifdef _GLIBCXX_USE_CXX11_ABI
  PyModule_AddIntConstant(module, "_GLIBCXX_USE_CXX11_ABI", _GLIBCXX_USE_CXX11_ABI);
#else
  PyModule_AddIntConstant(module, "_GLIBCXX_USE_CXX11_ABI", 1);
#endif
  // The oldest CPython this libtorch_python serves on the stable ABI (0: built
  // for the running Python's full API only).
#ifdef Py_LIMITED_API
  PyModule_AddIntConstant(module, "_limited_api", Py_LIMITED_API);
#else
  PyModule_AddIntConstant(module, "_limited_api", 0);
#endif
  // Asked of libtorch_cpu: only it is compiled with OpenMP.
  PyModule_AddStringConstant(module, "_parallel_backend", at::parallel_backend());
  PyModule_AddIntConstant(module, "_has_openmp", std::string(at::parallel_backend()) == "OpenMP");
  return module;
}
