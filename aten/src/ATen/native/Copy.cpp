// Copying, filling and converting: copy_, fill_, clone, contiguous, to, item.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
#include <ATen/native/Copy.h>
#include <c10/util/Warning.h>

namespace at::native {

DEFINE_DISPATCH(copy_stub);
DEFINE_DISPATCH(fill_stub);
DEFINE_DISPATCH(convert_contiguous_stub);
DEFINE_DISPATCH(copy_bytes_stub);

namespace {

// Whether the memory `a` writes partly overlaps what `b` reads: the result
// would depend on the order elements are visited. Only decided for dense
// layouts; strided views that interleave are let through, as in PyTorch.
bool partial_overlap(const Tensor& a, const Tensor& b) {
  if (!a.storage().is_alias_of(b.storage()) || !a.is_contiguous() || !b.is_contiguous()) return false;
  const char* a0 = static_cast<const char*>(a.data_ptr());
  const char* b0 = static_cast<const char*>(b.data_ptr());
  const char* a1 = a0 + a.nbytes();
  const char* b1 = b0 + b.nbytes();
  const bool overlap = a0 < b1 && b0 < a1;
  return overlap && !(a0 == b0 && a1 == b1);
}

// Whether t's elements fill its memory exactly once, in some order of its
// dims (contiguous, transposed, channels_last, ...): the strides of the dims
// with more than one element, smallest first, are 1 and running products.
bool dense_in_some_order(const Tensor& t) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) > 1) dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return t.stride(a) < t.stride(b); });
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

// Two tensors laid out alike and densely: element k of one's memory is
// element k of the other's, so a copy runs over both as flat lines (the
// iterator visits dims in their logical order, across a transposed or
// channels_last layout's strides).
bool same_dense_layout(const Tensor& a, const Tensor& b) {
  if (!a.sizes().equals(b.sizes())) return false;
  for (int64_t d = 0; d < a.dim(); ++d)
    if (a.size(d) > 1 && a.stride(d) != b.stride(d)) return false;
  return dense_in_some_order(a);
}

Tensor as_line(const Tensor& t) { return t.as_strided({t.numel()}, {1}, t.storage_offset()); }

// Copies between devices: src is cast and made dense on its own device, the
// bytes move in one transfer, and a strided destination is filled from a
// dense temporary on its device.
void copy_between_devices(const Tensor& self, const Tensor& src) {
  Tensor dense_src = src.expand(self.sizes()).to(self.scalar_type()).contiguous();
  Tensor dense_dst = self.is_contiguous() ? self : at::empty(self.sizes(), self.scalar_type(), self.device());
  if (self.numel() > 0) {
    const c10::DeviceType by = self.is_cuda() ? self.device().type : src.device().type;
    copy_bytes_stub(by, dense_dst.data_ptr(), dense_dst.device(), dense_src.data_ptr(), dense_src.device(),
                    dense_dst.nbytes());
  }
  if (!dense_dst.is_same(self)) self.copy_(dense_dst);
}

// Copies with a complex side go through the parts (view_as_real): complex to
// complex copies both parts, a real source becomes the real part (imaginary
// 0), and a complex source into a real tensor gives its real part, with
// PyTorch's warning.
void copy_complex(const Tensor& self, const Tensor& src) {
  const Tensor source = src.expand(self.sizes());
  const bool to_complex = c10::isComplexType(self.scalar_type());
  const bool from_complex = c10::isComplexType(source.scalar_type());
  if (to_complex && from_complex) {
    at::view_as_real(self).copy_(at::view_as_real(source));
  } else if (to_complex) {
    const Tensor parts = at::view_as_real(self);
    parts.select(-1, 0).copy_(source);
    parts.select(-1, 1).fill_(0);
  } else {
    TORCH_WARN("Casting complex values to real discards the imaginary part");
    self.copy_(at::view_as_real(source).select(-1, 0));
  }
}

// Whether the value is stored as all-zero bytes in every real dtype (0, 0.0,
// false; not -0.0, whose sign bit is set).
bool is_zero_bits(const Scalar& value) {
  if (value.isFloatingPoint()) return value.toDouble() == 0.0 && !std::signbit(value.toDouble());
  return value.isIntegral(/*includeBool=*/true) && value.toLong() == 0;
}

// Fills a dense CPU tensor of a real dtype with one value, bytes only: zeros
// by memset; any other value written into the first bytes, doubled up to a
// block, then that block copied across each thread's chunk. memset and
// memcpy run glibc's widest stores whatever the dtype, where the fill
// kernel's integer and bool cases have the DEFAULT copy's 16-byte ones.
void fill_dense_cpu(const Tensor& self, const Scalar& value) {
  char* base = static_cast<char*>(self.data_ptr());
  const int64_t nbytes = static_cast<int64_t>(self.nbytes());
  if (is_zero_bits(value)) {
    at::parallel_for(0, nbytes, 1 << 18, [&](int64_t begin, int64_t end) {
      std::memset(base + begin, 0, static_cast<size_t>(end - begin));
    });
    return;
  }
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "fill_", [&] {
    const scalar_t v = value.to<scalar_t>();  // PyTorch's overflow check, as the kernel's
    std::memcpy(base, &v, sizeof v);
  });
  // A multiple of every element size, and under glibc's threshold for
  // `rep movsb`, which is slower than its vector loop on AMD's cores.
  constexpr int64_t kBlock = 2048;
  int64_t filled = self.element_size();
  for (; filled < std::min(nbytes, kBlock); filled *= 2) {
    std::memcpy(base + filled, base, static_cast<size_t>(std::min(filled, nbytes - filled)));
  }
  const int64_t blocks = (nbytes + kBlock - 1) / kBlock;
  at::parallel_for(1, blocks, 128, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      std::memcpy(base + b * kBlock, base, static_cast<size_t>(std::min(kBlock, nbytes - b * kBlock)));
    }
  });
}

}  // namespace

const Tensor& copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;
  if (self.is_same(src)) return self;
  if (self.device() != src.device()) {
    copy_between_devices(self, src);
    return self;
  }
  TORCH_CHECK(!partial_overlap(self, src),
              "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
              "single memory location. Please clone() the tensor before performing the operation.");
  if (c10::isComplexType(self.scalar_type()) || c10::isComplexType(src.scalar_type())) {
    copy_complex(self, src);
    return self;
  }
  const bool as_lines = self.numel() > 1 && !self.is_contiguous() && same_dense_layout(self, src);
  auto iter = TensorIteratorConfig()
                  .add_output(as_lines ? as_line(self) : self)
                  .add_input(as_lines ? as_line(src) : src)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .build();
  copy_stub(self.device().type, iter);
  return self;
}

const Tensor& fill_(const Tensor& self, const Scalar& value) {
  if (c10::isComplexType(self.scalar_type())) {
    // A (real) number: the real parts take it, the imaginary parts 0.
    const Tensor parts = at::view_as_real(self);
    parts.select(-1, 0).fill_(value);
    parts.select(-1, 1).fill_(0);
    return self;
  }
  if (self.numel() == 1 && self.is_cpu()) {
    // PyTorch's one-element fast path (scalar_fill) takes any number into
    // float16/bfloat16 (70000 becomes inf) and checks the other dtypes.
    check_scalar_fits_unless_reduced(value, self.scalar_type());
    const Tensor v = scalar_tensor_of(value, self.scalar_type());
    std::memcpy(self.data_ptr(), v.data_ptr(), self.element_size());
    return self;
  }
  if (self.numel() == 0) {
    check_scalar_fits(value, self.scalar_type());  // as PyTorch: int32 fill_(1e30) fails even when empty
    return self;
  }
  if (self.is_cpu() && self.is_contiguous()) {
    fill_dense_cpu(self, value);
    return self;
  }
  // One value everywhere: an expanded tensor may be filled, as in PyTorch.
  auto iter = TensorIteratorConfig().add_output(self).resize_outputs(false).check_mem_overlap(false).build();
  fill_stub(self.device().type, iter, value);
  return self;
}

Tensor clone(const Tensor& self) {
  Tensor result = at::empty_like(self);
  result.copy_(self);
  return result;
}

Tensor contiguous(const Tensor& self) { return self.is_contiguous() ? self : self.clone(); }

// The strides must lay self's sizes out densely, each element once: a
// permutation of contiguous strides (size-1 dims may have any stride, and an
// empty tensor any strides at all, as c10 judges density).
Tensor _clone_strided(const Tensor& self, IntArrayRef stride) {
  TORCH_CHECK(static_cast<int64_t>(stride.size()) == self.dim(), "_clone_strided: ", stride.size(),
              " strides for a tensor of ", self.dim(), " dims");
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < self.dim() && self.numel() != 0; ++d) {
    if (self.size(d) > 1) dims.push_back(d);
  }
  std::sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return stride[a] < stride[b]; });
  int64_t expected = 1;
  for (int64_t d : dims) {
    TORCH_CHECK(stride[d] == expected, "_clone_strided: strides ", stride, " are not a dense layout of size ",
                self.sizes());
    expected *= self.size(d);
  }
  Tensor result = at::_empty_strided(self.sizes(), stride, self.scalar_type(), self.device());
  result.copy_(self);
  return result;
}

Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device, bool non_blocking) {
  Tensor result = at::empty(self.sizes(), dtype.value_or(self.scalar_type()), device.value_or(self.device()));
  result.copy_(self, non_blocking);
  return result;
}

Tensor to(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy) {
  if (dtype == self.scalar_type() && !copy) return self;
  return at::_to_copy(self, dtype, std::nullopt, non_blocking);
}

Tensor to(const Tensor& self, std::optional<Device> device, std::optional<ScalarType> dtype, bool non_blocking,
          bool copy) {
  const ScalarType type = dtype.value_or(self.scalar_type());
  const bool same_device = !device || (device->type == self.device().type &&
                                       (!device->has_index() || *device == self.device()));
  if (same_device) return at::to(self, type, non_blocking, copy);
  return at::_to_copy(self, type, *device, non_blocking);
}

Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy) {
  return self.to(other.device(), other.scalar_type(), non_blocking, copy);
}

Scalar item(const Tensor& self) {
  TORCH_CHECK(self.numel() == 1, "a Tensor with ", self.numel(), " elements cannot be converted to Scalar");
  return at::_local_scalar_dense(self);
}

Scalar _local_scalar_dense_cpu(const Tensor& self) {
  // Reachable from Python as torch._local_scalar_dense: never read an empty tensor.
  TORCH_CHECK(self.numel() > 0, "_local_scalar_dense: a Tensor with 0 elements has no value to read");
  const void* p = self.data_ptr();
  switch (self.scalar_type()) {
    case ScalarType::Bool: return Scalar(*static_cast<const bool*>(p));
    case ScalarType::Byte: return Scalar(*static_cast<const uint8_t*>(p));
    case ScalarType::Char: return Scalar(*static_cast<const int8_t*>(p));
    case ScalarType::Short: return Scalar(*static_cast<const int16_t*>(p));
    case ScalarType::Int: return Scalar(*static_cast<const int32_t*>(p));
    case ScalarType::Long: return Scalar(*static_cast<const int64_t*>(p));
    case ScalarType::Float: return Scalar(*static_cast<const float*>(p));
    case ScalarType::Double: return Scalar(*static_cast<const double*>(p));
    case ScalarType::Half: return Scalar(static_cast<float>(*static_cast<const c10::Half*>(p)));
    case ScalarType::BFloat16: return Scalar(static_cast<float>(*static_cast<const c10::BFloat16*>(p)));
    default: TORCH_CHECK_NOT_IMPLEMENTED(false, "item() not implemented for '", self.scalar_type(), "'");
  }
}

// The value is read on the host: one small device-to-host copy.
Scalar _local_scalar_dense_cuda(const Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "_local_scalar_dense: a Tensor with 0 elements has no value to read");
  Tensor host = at::empty({}, self.scalar_type(), Device(DeviceType::CPU));
  host.copy_(self.reshape({}));
  return _local_scalar_dense_cpu(host);
}

}  // namespace at::native
