// Zero-copy exchange with numpy and DLPack:
//   _C._from_array_interface(obj): a tensor over the memory of any object with
//       __array_struct__ or __array_interface__ (numpy arrays and scalars),
//       keeping it alive; _C._array_struct(tensor) and _C._array_interface(tensor):
//       the other way, what Tensor.numpy() hands numpy;
//   Tensor.__dlpack__ / torch._C._from_dlpack(capsule): DLPack both ways.
#include "csrc/Exceptions.h"
#include "csrc/dlpack.h"
#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"

#include <ATen/FromBlob.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace torch {
namespace {

// Drops a reference to a Python object from whatever thread frees the tensor.
void decref_with_gil(void* obj) {
  if (!Py_IsInitialized()) return;  // interpreter gone: leak rather than crash
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF(static_cast<PyObject*>(obj));
  PyGILState_Release(state);
}

at::ScalarType dtype_from_typestr(const std::string& typestr) {
  TORCH_CHECK_TYPE(typestr.size() >= 3, "unsupported array type '", typestr, "'");
  const char order = typestr[0], kind = typestr[1];
  const int size = std::stoi(typestr.substr(2));
  TORCH_CHECK_TYPE(order == '<' || order == '|' || order == '=',
                   "can't convert a big-endian array (type '", typestr, "') to a tensor");
  if (kind == 'f' && size == 8) return at::ScalarType::Double;
  if (kind == 'f' && size == 4) return at::ScalarType::Float;
  if (kind == 'f' && size == 2) return at::ScalarType::Half;
  if (kind == 'c' && size == 16) return at::ScalarType::ComplexDouble;
  if (kind == 'c' && size == 8) return at::ScalarType::ComplexFloat;
  if (kind == 'i' && size == 8) return at::ScalarType::Long;
  if (kind == 'i' && size == 4) return at::ScalarType::Int;
  if (kind == 'i' && size == 2) return at::ScalarType::Short;
  if (kind == 'i' && size == 1) return at::ScalarType::Char;
  if (kind == 'u' && size == 1) return at::ScalarType::Byte;
  if (kind == 'b' && size == 1) return at::ScalarType::Bool;
  throw c10::TypeError("can't convert np.ndarray of type '" + typestr +
                       "'. The only supported types are: float64, float32, float16, complex64, complex128, int64, "
                       "int32, int16, int8, uint8, and bool.");
}

// numpy's C-side array interface (__array_struct__): a capsule holding this
// struct, as numpy's "array interface protocol" documents it. Reading it
// skips the dict that __array_interface__ builds on every access (1.5 us
// of from_numpy's 3 us).
struct ArrayStruct {
  int two;  // 2, a sanity check
  int nd;
  char typekind;
  int itemsize;
  int flags;
  Py_ssize_t* shape;
  Py_ssize_t* strides;  // null for a C-contiguous array
  void* data;
  PyObject* descr;
};
constexpr int kArrayNotSwapped = 0x200;

// The tensor dtype of a native-order kind and item size; Undefined for the rest.
at::ScalarType dtype_from_kind(char kind, int itemsize) {
  switch (kind) {
    case 'f':
      return itemsize == 8 ? at::ScalarType::Double : itemsize == 4 ? at::ScalarType::Float
             : itemsize == 2 ? at::ScalarType::Half : at::ScalarType::Undefined;
    case 'i':
      return itemsize == 8 ? at::ScalarType::Long : itemsize == 4 ? at::ScalarType::Int
             : itemsize == 2 ? at::ScalarType::Short : itemsize == 1 ? at::ScalarType::Char
             : at::ScalarType::Undefined;
    case 'c':
      return itemsize == 16 ? at::ScalarType::ComplexDouble : itemsize == 8 ? at::ScalarType::ComplexFloat
             : at::ScalarType::Undefined;
    case 'u': return itemsize == 1 ? at::ScalarType::Byte : at::ScalarType::Undefined;
    case 'b': return itemsize == 1 ? at::ScalarType::Bool : at::ScalarType::Undefined;
    default: return at::ScalarType::Undefined;
  }
}

// A tensor over obj's memory from its __array_struct__; undefined where obj
// has none or it describes what __array_interface__'s path must refuse
// (that path words the errors).
at::Tensor from_array_struct(PyObject* obj) {
  PyObject* capsule = PyObject_GetAttrString(obj, "__array_struct__");
  if (!capsule) {
    PyErr_Clear();
    return at::Tensor();
  }
  struct Ref {
    PyObject* o;
    ~Ref() { Py_DECREF(o); }
  } capsule_ref{capsule};
  auto* s = PyCapsule_CheckExact(capsule) ? static_cast<ArrayStruct*>(PyCapsule_GetPointer(capsule, nullptr)) : nullptr;
  if (!s) {
    PyErr_Clear();
    return at::Tensor();
  }
  const at::ScalarType dtype = s->two == 2 && (s->flags & kArrayNotSwapped) ? dtype_from_kind(s->typekind, s->itemsize)
                                                                          : at::ScalarType::Undefined;
  if (dtype == at::ScalarType::Undefined) return at::Tensor();
  std::vector<int64_t> sizes(s->nd), strides(s->nd);
  int64_t contiguous = 1;
  for (int i = s->nd - 1; i >= 0; --i) {
    sizes[i] = s->shape[i];
    if (s->strides) {
      if (s->strides[i] < 0 || s->strides[i] % s->itemsize != 0) return at::Tensor();
      strides[i] = s->strides[i] / s->itemsize;
    } else {
      strides[i] = contiguous;
    }
    contiguous *= std::max<int64_t>(sizes[i], 1);
  }
  // The capsule is what keeps the data alive: an array's holds the array, a
  // numpy scalar's the temporary array it made (which dies with the capsule).
  Py_INCREF(capsule);  // released by the storage's deleter
  try {
    return at::from_blob(s->data, sizes, strides, dtype, capsule, &decref_with_gil);
  } catch (...) {
    Py_DECREF(capsule);
    throw;
  }
}

// numpy's name for a dtype in an __array_interface__, or nullptr where numpy has none (bfloat16).
const char* typestr_of(at::ScalarType t) {
  switch (t) {
    case at::ScalarType::Double: return "<f8";
    case at::ScalarType::Float: return "<f4";
    case at::ScalarType::Half: return "<f2";
    case at::ScalarType::Long: return "<i8";
    case at::ScalarType::Int: return "<i4";
    case at::ScalarType::Short: return "<i2";
    case at::ScalarType::Char: return "|i1";
    case at::ScalarType::Byte: return "|u1";
    case at::ScalarType::Bool: return "|b1";
    case at::ScalarType::ComplexFloat: return "<c8";
    case at::ScalarType::ComplexDouble: return "<c16";
    default: return nullptr;
  }
}

// A CPU tensor's __array_interface__ dict (version 3: data, shape, strides in
// bytes, typestr), or None for a dtype numpy lacks: built here in one call,
// since Tensor.numpy() assembling it attribute by attribute cost a microsecond.
PyObject* array_interface(PyObject*, PyObject* arg) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(THPVariable_Check(arg), "_array_interface expects a Tensor");
  const at::Tensor& t = THPVariable_Unpack(arg);
  const char* typestr = typestr_of(t.scalar_type());
  if (typestr == nullptr) Py_RETURN_NONE;
  const int64_t dims = t.dim(), item = static_cast<int64_t>(t.element_size());
  PyObject* shape = PyTuple_New(dims);
  PyObject* strides = PyTuple_New(dims);
  if (!shape || !strides) {
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return nullptr;
  }
  for (int64_t d = 0; d < dims; ++d) {
    PyTuple_SetItem(shape, d, PyLong_FromLongLong(t.size(d)));  // steals the reference
    PyTuple_SetItem(strides, d, PyLong_FromLongLong(t.stride(d) * item));
  }
  return Py_BuildValue("{s:i,s:(NO),s:N,s:N,s:s}", "version", 3, "data",
                       PyLong_FromVoidPtr(t.numel() == 0 ? nullptr : t.data_ptr()), Py_False, "shape", shape,
                       "strides", strides, "typestr", typestr);
  END_HANDLE_TH_ERRORS
}

// numpy's PyArrayInterface (numpy/ndarraytypes.h), which __array_struct__
// carries in a capsule: declared here, since numpy's headers are not a build
// dependency. numpy reads it without parsing a dict, which makes
// Tensor.numpy() twice as fast as __array_interface__.
struct NumpyArrayStruct {
  int two;  // always 2
  int nd;
  char typekind;
  int itemsize;
  int flags;
  Py_intptr_t* shape;
  Py_intptr_t* strides;
  void* data;
  PyObject* descr;
};
constexpr int kNumpyAligned = 0x100, kNumpyNotSwapped = 0x200, kNumpyWriteable = 0x400;

void free_array_struct(PyObject* capsule) { std::free(PyCapsule_GetPointer(capsule, nullptr)); }

// A CPU tensor as an __array_struct__ capsule (one allocation: the struct,
// then its shape and strides), or None for a dtype numpy lacks.
PyObject* array_struct(PyObject*, PyObject* arg) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(THPVariable_Check(arg), "_array_struct expects a Tensor");
  const at::Tensor& t = THPVariable_Unpack(arg);
  const char* typestr = typestr_of(t.scalar_type());
  if (typestr == nullptr) Py_RETURN_NONE;
  const int64_t dims = t.dim(), item = static_cast<int64_t>(t.element_size());
  void* block = std::malloc(sizeof(NumpyArrayStruct) + 2 * static_cast<size_t>(dims) * sizeof(Py_intptr_t));
  if (block == nullptr) return PyErr_NoMemory();
  auto* info = static_cast<NumpyArrayStruct*>(block);
  auto* sizes = reinterpret_cast<Py_intptr_t*>(info + 1);
  for (int64_t d = 0; d < dims; ++d) {
    sizes[d] = static_cast<Py_intptr_t>(t.size(d));
    sizes[dims + d] = static_cast<Py_intptr_t>(t.stride(d) * item);
  }
  *info = NumpyArrayStruct{2, static_cast<int>(dims), typestr[1], static_cast<int>(item),
                           kNumpyAligned | kNumpyNotSwapped | kNumpyWriteable, sizes, sizes + dims, t.data_ptr(),
                           nullptr};
  PyObject* capsule = PyCapsule_New(block, nullptr, free_array_struct);
  if (capsule == nullptr) std::free(block);
  return capsule;
  END_HANDLE_TH_ERRORS
}

PyObject* from_array_interface(PyObject*, PyObject* obj) {
  HANDLE_TH_ERRORS
  if (at::Tensor t = from_array_struct(obj); t.defined()) return THPVariable_Wrap(std::move(t));
  PyObject* iface = PyObject_GetAttrString(obj, "__array_interface__");
  if (!iface) throw python_error();
  struct Ref {
    PyObject* o;
    ~Ref() { Py_XDECREF(o); }
  } iface_ref{iface};
  TORCH_CHECK_TYPE(PyDict_Check(iface), "__array_interface__ must be a dict");
  PyObject* data = PyDict_GetItemString(iface, "data");
  PyObject* shape = PyDict_GetItemString(iface, "shape");
  PyObject* strides = PyDict_GetItemString(iface, "strides");
  PyObject* typestr = PyDict_GetItemString(iface, "typestr");
  TORCH_CHECK_TYPE(data && PyTuple_Check(data) && shape && typestr && PyUnicode_Check(typestr),
                   "__array_interface__ lacks data, shape or typestr (only the v3 protocol is supported)");
  const at::ScalarType dtype = dtype_from_typestr(utf8(typestr));
  const int64_t itemsize = static_cast<int64_t>(c10::elementSize(dtype));
  void* ptr = PyLong_AsVoidPtr(tuple_item(data, 0));
  if (PyErr_Occurred()) throw python_error();
  const std::vector<int64_t> sizes = to_int_list(shape);
  std::vector<int64_t> elem_strides(sizes.size());
  if (strides && strides != Py_None) {
    const std::vector<int64_t> byte_strides = to_int_list(strides);
    for (size_t i = 0; i < sizes.size(); ++i) {
      TORCH_CHECK_VALUE(byte_strides[i] >= 0,
                        "At least one stride in the given numpy array is negative, and tensors with negative "
                        "strides are not currently supported. (You can probably work around this by making a copy "
                        "of your array  with array.copy().) ");
      TORCH_CHECK_VALUE(byte_strides[i] % itemsize == 0, "given numpy array strides not a multiple of the element "
                        "byte size. Copy the numpy array to reallocate the memory.");
      elem_strides[i] = byte_strides[i] / itemsize;
    }
  } else {
    int64_t s = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
      elem_strides[i] = s;
      s *= std::max<int64_t>(sizes[i], 1);
    }
  }
  Py_INCREF(obj);  // released by the storage's deleter
  at::Tensor t;
  try {
    t = at::from_blob(ptr, sizes, elem_strides, dtype, obj, &decref_with_gil);
  } catch (...) {
    Py_DECREF(obj);
    throw;
  }
  return THPVariable_Wrap(std::move(t));
  END_HANDLE_TH_ERRORS
}

// ---- DLPack ----

struct DLPackExport {
  at::Tensor tensor;
  std::vector<int64_t> shape, strides;
  DLManagedTensor managed;
};

void dlpack_export_deleter(DLManagedTensor* self) { delete static_cast<DLPackExport*>(self->manager_ctx); }

void dlpack_capsule_destructor(PyObject* capsule) {
  // A consumer renames the capsule to "used_dltensor" and takes ownership;
  // an unconsumed capsule still owns its tensor.
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (managed && managed->deleter) managed->deleter(managed);
  } else {
    PyErr_Clear();
  }
}

DLDataType dl_dtype(at::ScalarType t) {
  const uint8_t bits = static_cast<uint8_t>(c10::elementSize(t) * 8);
  switch (t) {
    case at::ScalarType::Bool: return {kDLBool, 8, 1};
    case at::ScalarType::Byte: return {kDLUInt, bits, 1};
    case at::ScalarType::BFloat16: return {kDLBfloat, 16, 1};
    case at::ScalarType::Half: case at::ScalarType::Float: case at::ScalarType::Double: return {kDLFloat, bits, 1};
    case at::ScalarType::ComplexHalf: case at::ScalarType::ComplexFloat: case at::ScalarType::ComplexDouble:
      return {kDLComplex, bits, 1};
    default: return {kDLInt, bits, 1};
  }
}

at::ScalarType from_dl_dtype(DLDataType t) {
  TORCH_CHECK(t.lanes == 1, "DLPack: vector dtypes (lanes = ", t.lanes, ") are not supported");
  switch (t.code) {
    case kDLBool: if (t.bits == 8) return at::ScalarType::Bool; break;
    case kDLUInt: if (t.bits == 8) return at::ScalarType::Byte; break;
    case kDLBfloat: if (t.bits == 16) return at::ScalarType::BFloat16; break;
    case kDLFloat:
      if (t.bits == 16) return at::ScalarType::Half;
      if (t.bits == 32) return at::ScalarType::Float;
      if (t.bits == 64) return at::ScalarType::Double;
      break;
    case kDLComplex:
      if (t.bits == 32) return at::ScalarType::ComplexHalf;
      if (t.bits == 64) return at::ScalarType::ComplexFloat;
      if (t.bits == 128) return at::ScalarType::ComplexDouble;
      break;
    case kDLInt:
      if (t.bits == 8) return at::ScalarType::Char;
      if (t.bits == 16) return at::ScalarType::Short;
      if (t.bits == 32) return at::ScalarType::Int;
      if (t.bits == 64) return at::ScalarType::Long;
      break;
  }
  TORCH_CHECK_TYPE(false, "DLPack: unsupported dtype (code ", int(t.code), ", ", int(t.bits), " bits)");
}

PyObject* tensor_dlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  // Accepts the standard keywords (stream, max_version, dl_device, copy) and
  // answers with the unversioned capsule, which every consumer understands.
  static const char* kwlist[] = {"stream", "max_version", "dl_device", "copy", nullptr};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO", const_cast<char**>(kwlist), &stream, &max_version,
                                   &dl_device, &copy)) {
    return nullptr;
  }
  TORCH_CHECK(copy != Py_True, "__dlpack__(copy=True) is not supported; copy the tensor first");
  const at::Tensor& t = THPVariable_Unpack(self);
  auto* ex = new DLPackExport{t, t.sizes().vec(), t.strides().vec(), {}};
  DLTensor& dl = ex->managed.dl_tensor;
  dl.data = t.data_ptr();
  dl.device = {t.is_cuda() ? kDLCUDA : kDLCPU, t.is_cuda() ? std::max<int32_t>(t.device().index, 0) : 0};
  dl.ndim = static_cast<int32_t>(t.dim());
  dl.dtype = dl_dtype(t.scalar_type());
  dl.shape = ex->shape.data();
  dl.strides = ex->strides.data();
  dl.byte_offset = 0;
  ex->managed.manager_ctx = ex;
  ex->managed.deleter = &dlpack_export_deleter;
  PyObject* capsule = PyCapsule_New(&ex->managed, "dltensor", &dlpack_capsule_destructor);
  if (!capsule) {
    delete ex;
    return nullptr;
  }
  return capsule;
  END_HANDLE_TH_ERRORS
}

PyObject* tensor_dlpack_device(PyObject* self, PyObject*) {
  const at::Tensor& t = THPVariable_Unpack(self);
  return Py_BuildValue("(ii)", t.is_cuda() ? kDLCUDA : kDLCPU, t.is_cuda() ? std::max<int>(t.device().index, 0) : 0);
}

void dlpack_import_deleter(void* ctx) {
  auto* managed = static_cast<DLManagedTensor*>(ctx);
  if (managed->deleter) managed->deleter(managed);
}

PyObject* from_dlpack_capsule(PyObject*, PyObject* capsule) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(PyCapsule_IsValid(capsule, "dltensor"),
                   "from_dlpack: expected a DLPack capsule named 'dltensor' (already consumed, or not a capsule)");
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  const DLTensor& dl = managed->dl_tensor;
  TORCH_CHECK(dl.device.device_type == kDLCPU, "from_dlpack: only CPU tensors are supported, got device type ",
              dl.device.device_type);
  const at::ScalarType dtype = from_dl_dtype(dl.dtype);
  std::vector<int64_t> sizes(dl.shape, dl.shape + dl.ndim), strides(dl.ndim);
  if (dl.strides) {
    strides.assign(dl.strides, dl.strides + dl.ndim);
  } else {
    int64_t s = 1;
    for (int i = dl.ndim; i-- > 0;) {
      strides[i] = s;
      s *= std::max<int64_t>(sizes[i], 1);
    }
  }
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  at::Tensor t = at::from_blob(data, sizes, strides, dtype, managed, &dlpack_import_deleter);
  // Ownership passed to the tensor: mark the capsule consumed.
  PyCapsule_SetName(capsule, "used_dltensor");
  return THPVariable_Wrap(std::move(t));
  END_HANDLE_TH_ERRORS
}

// _from_address(address, nbytes, owner): a 1-D uint8 tensor over memory
// someone else owns, holding `owner` until the storage is freed. torch/_buffer.py
// gets the address of an object's buffer (torch.frombuffer): the stable ABI
// this module builds against has no buffer protocol before Python 3.11.
PyObject* from_address(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject* address_obj = nullptr;
  PyObject* owner = nullptr;
  long long nbytes = 0;
  if (!PyArg_ParseTuple(args, "OLO", &address_obj, &nbytes, &owner)) return nullptr;
  void* address = PyLong_AsVoidPtr(address_obj);
  if (PyErr_Occurred()) throw python_error();
  TORCH_CHECK_VALUE(nbytes >= 0, "_from_address: nbytes must be non-negative, got ", nbytes);
  Py_INCREF(owner);  // released by the storage's deleter
  at::Tensor t;
  try {
    t = at::from_blob(address, {nbytes}, {1}, at::ScalarType::Byte, owner, &decref_with_gil);
  } catch (...) {
    Py_DECREF(owner);
    throw;
  }
  return THPVariable_Wrap(std::move(t));
  END_HANDLE_TH_ERRORS
}

// Storages (torch/storage.py): an UntypedStorage is a uint8 tensor over all
// the bytes of a tensor's storage, and Tensor.set_(storage, ...) points a
// tensor at such bytes.
PyObject* storage_bytes(PyObject*, PyObject* arg) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(THPVariable_Check(arg), "_storage_bytes expects a Tensor");
  const at::Tensor& t = THPVariable_Unpack(arg);
  auto impl = c10::make_intrusive<c10::TensorImpl>(t.storage(), at::ScalarType::Byte, t.device());
  impl->set_sizes_contiguous({static_cast<int64_t>(t.storage().nbytes())});
  return THPVariable_Wrap(at::Tensor(std::move(impl)));
  END_HANDLE_TH_ERRORS
}

// _set_storage(self, bytes, offset, size, stride): self keeps its dtype and
// reads the storage under `bytes` (an UntypedStorage's tensor) with the
// given geometry, in elements of its dtype, as Tensor.set_(storage, ...).
PyObject* set_storage(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *self_obj = nullptr, *bytes_obj = nullptr, *size_obj = nullptr, *stride_obj = nullptr;
  long long offset = 0;
  if (!PyArg_ParseTuple(args, "OOLOO", &self_obj, &bytes_obj, &offset, &size_obj, &stride_obj)) return nullptr;
  TORCH_CHECK_TYPE(THPVariable_Check(self_obj) && THPVariable_Check(bytes_obj), "_set_storage expects Tensors");
  const at::Tensor& self = THPVariable_Unpack(self_obj);
  const at::Tensor& bytes = THPVariable_Unpack(bytes_obj);
  TORCH_CHECK(self.device() == bytes.device(), "Expected a storage on device ", self.device().str(),
              " but got one on ", bytes.device().str());
  TORCH_CHECK(offset >= 0, "Tensor.set_: storage_offset must be non-negative, got ", offset);
  const std::vector<int64_t> size = to_int_list(size_obj), stride = to_int_list(stride_obj);
  TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  TORCH_CHECK(!self.requires_grad(), "Tensor.set_: a tensor that requires grad cannot be pointed at other memory");
  c10::TensorImpl* impl = self.unsafeGetTensorImpl();
  c10::Storage previous = impl->storage();
  const std::vector<int64_t> old_size = self.sizes().vec(), old_stride = self.strides().vec();
  const int64_t old_offset = self.storage_offset();
  impl->set_storage(bytes.storage());
  try {
    impl->set_sizes_and_strides(size, stride, offset);  // checks that the geometry fits the storage
  } catch (...) {
    impl->set_storage(std::move(previous));
    impl->set_sizes_and_strides(old_size, old_stride, old_offset);
    throw;
  }
  impl->bump_version();
  Py_INCREF(self_obj);
  return self_obj;
  END_HANDLE_TH_ERRORS
}

// _storage_slice(bytes, start, stop): the bytes [start, stop) of a storage
// as a storage of their own that shares the memory (UntypedStorage[a:b], as
// PyTorch's); it keeps the whole storage alive.
void release_storage_ref(void* ctx) { delete static_cast<c10::Storage*>(ctx); }

PyObject* storage_slice(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject* bytes_obj = nullptr;
  long long start = 0, stop = 0;
  if (!PyArg_ParseTuple(args, "OLL", &bytes_obj, &start, &stop)) return nullptr;
  TORCH_CHECK_TYPE(THPVariable_Check(bytes_obj), "_storage_slice expects a Tensor");
  const at::Tensor& bytes = THPVariable_Unpack(bytes_obj);
  const long long nbytes = static_cast<long long>(bytes.storage().nbytes());
  TORCH_CHECK_INDEX(0 <= start && start <= stop && stop <= nbytes, "storage slice [", start, ":", stop,
                    "] out of range for a storage of ", nbytes, " bytes");
  auto* keep = new c10::Storage(bytes.storage());
  at::Tensor t;
  try {
    t = at::from_blob(static_cast<char*>(bytes.storage().data()) + start, {stop - start}, {1},
                      at::ScalarType::Byte, keep, &release_storage_ref, bytes.device());
  } catch (...) {
    delete keep;
    throw;
  }
  return THPVariable_Wrap(std::move(t));
  END_HANDLE_TH_ERRORS
}

PyMethodDef interop_functions[] = {
    {"_storage_slice", storage_slice, METH_VARARGS, nullptr},
    {"_storage_bytes", storage_bytes, METH_O, nullptr},
    {"_set_storage", set_storage, METH_VARARGS, nullptr},
    {"_from_address", from_address, METH_VARARGS, nullptr},
    {"_from_array_interface", from_array_interface, METH_O, nullptr},
    {"_array_interface", array_interface, METH_O, nullptr},
    {"_array_struct", array_struct, METH_O, nullptr},
    {"_from_dlpack", from_dlpack_capsule, METH_O, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyMethodDef tensor_interop_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack, METH_VARARGS | METH_KEYWORDS, nullptr},
    {"__dlpack_device__", tensor_dlpack_device, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

void init_interop(PyObject* module) { PyModule_AddFunctions(module, interop_functions); }

}  // namespace torch
