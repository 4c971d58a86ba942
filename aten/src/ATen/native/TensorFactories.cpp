// Creating tensors: empty and the ops built on it.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Distributions.h>
#include <ATen/core/Generator.h>
#include <ATen/detail/CUDAHooks.h>
#include <c10/core/Allocator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>

namespace at::native {

namespace {

int64_t checked_numel(IntArrayRef size) {
  int64_t numel = 1;
  for (int64_t s : size) {
    TORCH_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", size);
    TORCH_CHECK(s == 0 || numel <= std::numeric_limits<int64_t>::max() / s / 16,
                "empty(): the size ", size, " is too large");
    numel *= s;
  }
  return numel;
}

// The device a CUDA tensor goes to: "cuda" means the current device. A CPU
// build (no hooks registered) raises "Torch not compiled with CUDA enabled".
Device resolve_cuda_device(std::optional<Device> device) {
  const auto& hooks = at::detail::cuda_hooks();
  if (!hooks.compiled_with_cuda()) at::detail::raise_no_cuda();
  Device d = device.value_or(Device(DeviceType::CUDA));
  if (!d.has_index()) d = Device(DeviceType::CUDA, static_cast<int8_t>(hooks.current_device()));
  const int count = hooks.device_count();
  TORCH_CHECK(d.index < count, "CUDA error: invalid device ordinal: ", d.str(), " requested, but ",
              count == 0 ? std::string("no CUDA GPU is available (torch.cuda.is_available() is False)")
                         : "this machine has " + std::to_string(count) + " CUDA device(s)");
  return d;
}

// Allocates on device `d` (for CUDA, through libtorch_cuda's caching allocator,
// which allocates on the current device: switch to d's for the call).
c10::Storage allocate_on(Device d, size_t nbytes) {
  c10::Allocator* allocator = c10::GetAllocator(d.type);
  TORCH_CHECK(allocator != nullptr, "no allocator registered for device '", d.str(), "'");
  if (!d.is_cuda()) return c10::Storage::allocate(nbytes, allocator);
  const auto& hooks = at::detail::cuda_hooks();
  const int previous = hooks.current_device();
  if (previous != d.index) hooks.set_device(d.index);
  c10::Storage storage = c10::Storage::allocate(nbytes, allocator);
  if (previous != d.index) hooks.set_device(previous);
  return storage;
}

Tensor empty_on(IntArrayRef size, std::optional<ScalarType> dtype, Device d) {
  const ScalarType type = dtype.value_or(c10::get_default_dtype());
  TORCH_CHECK(type != ScalarType::Undefined, "empty(): undefined dtype");
  const int64_t numel = checked_numel(size);
  auto impl = c10::make_intrusive<c10::TensorImpl>(allocate_on(d, numel * c10::elementSize(type)), type, d);
  impl->set_sizes_contiguous(size);
  return Tensor(std::move(impl));
}

// The memory a tensor of these sizes and strides spans: its largest offset
// plus one (nothing when a size is 0).
int64_t strided_extent(IntArrayRef size, IntArrayRef stride) {
  TORCH_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
              ") must match dimensionality of strides (", stride.size(), ")");
  checked_numel(size);
  int64_t extent = 1;
  for (size_t i = 0; i < size.size(); ++i) {
    TORCH_CHECK(stride[i] >= 0, "empty_strided: negative strides are not supported, got strides: ", stride);
    if (size[i] == 0) return 0;
    TORCH_CHECK(stride[i] == 0 || size[i] - 1 <= (std::numeric_limits<int64_t>::max() / 16 - extent) / stride[i],
                "empty_strided: the size ", size, " with strides ", stride, " is too large");
    extent += (size[i] - 1) * stride[i];
  }
  return extent;
}

Tensor empty_strided_on(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype, Device d) {
  const ScalarType type = dtype.value_or(c10::get_default_dtype());
  TORCH_CHECK(type != ScalarType::Undefined, "empty_strided(): undefined dtype");
  const int64_t extent = strided_extent(size, stride);
  auto impl = c10::make_intrusive<c10::TensorImpl>(allocate_on(d, extent * c10::elementSize(type)), type, d);
  impl->set_sizes_and_strides(size, stride, 0);
  return Tensor(std::move(impl));
}

}  // namespace

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Device> device) {
  (void)device;
  return empty_strided_on(size, stride, dtype, Device(DeviceType::CPU));
}

Tensor empty_strided_cuda(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                          std::optional<Device> device) {
  return empty_strided_on(size, stride, dtype, resolve_cuda_device(device));
}

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  (void)device;  // dispatch already chose the CPU
  return empty_on(size, dtype, Device(DeviceType::CPU));
}

// Device-generic: the memory comes from the allocator libtorch_cuda registers.
Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return empty_on(size, dtype, resolve_cuda_device(device));
}

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::empty(self.sizes(), dtype.value_or(self.scalar_type()), device.value_or(self.device()));
}

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor t = at::empty(size, dtype, device);
  return t.zero_();
}

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::empty_like(self, dtype, device).zero_();
}

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::full(size, 1, dtype.value_or(c10::get_default_dtype()), device);
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::empty_like(self, dtype, device).fill_(1);
}

// Without a dtype, the fill value's kind decides: bool, int64 or the default float.
static ScalarType dtype_of(const Scalar& s) {
  if (s.isBoolean()) return ScalarType::Bool;
  if (s.isIntegral(false)) return ScalarType::Long;
  return c10::get_default_dtype();
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Device> device) {
  Tensor t = at::empty(size, dtype.value_or(dtype_of(fill_value)), device);
  return t.fill_(fill_value);
}

Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype, std::optional<Device> device) {
  const ScalarType type = dtype.value_or(c10::get_default_dtype());
  check_scalar_fits_unless_reduced(s, type);
  const Tensor t = scalar_tensor_of(s, type);  // on the CPU, unchecked
  return device && !device->is_cpu() ? t.to(*device, std::nullopt, false, false) : t;
}

Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::arange(0, end, 1, dtype, device);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<ScalarType> dtype,
              std::optional<Device> device) {
  const bool any_float = start.isFloatingPoint() || end.isFloatingPoint() || step.isFloatingPoint();
  const ScalarType type = dtype.value_or(any_float ? c10::get_default_dtype() : ScalarType::Long);
  TORCH_CHECK_NOT_IMPLEMENTED(type != ScalarType::Bool, "\"arange_cpu\" not implemented for 'Bool'");
  // PyTorch first converts the bounds and step to the dtype's accumulation
  // type, checked: int64 for integers, float for float16/bfloat16.
  for (const Scalar* v : {&start, &end, &step}) {
    if (c10::isIntegralType(type, false)) check_scalar_fits(*v, ScalarType::Long);
    else if (type == ScalarType::Half || type == ScalarType::BFloat16) check_scalar_fits(*v, ScalarType::Float);
  }
  const double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  TORCH_CHECK(std::isfinite(s) && std::isfinite(e), "unsupported range: ", s, " -> ", e);
  TORCH_CHECK(st != 0, "step must be nonzero");
  TORCH_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), "upper bound and larger bound inconsistent with step sign");
  int64_t n;
  Scalar first = start, stride = step;
  if (type != ScalarType::Long) {
    // PyTorch counts in double for every dtype but int64; an integer result
    // then steps from the truncated start by the truncated step
    // (arange(0.5, dtype=torch.int16) is [0]; a step truncated to 0 repeats the start).
    n = static_cast<int64_t>(std::ceil((e - s) / st));
    if (c10::isIntegralType(type, false)) {
      first = start.to_unchecked<int64_t>();
      stride = step.to_unchecked<int64_t>();
    }
  } else {
    // An int64 result counts in integers: PyTorch truncates the bounds and
    // step first (arange(-1.5, -1, 3, dtype=torch.int64) is empty).
    const int64_t si = start.to_unchecked<int64_t>(), ei = end.to_unchecked<int64_t>(),
                  sti = step.to_unchecked<int64_t>();
    TORCH_CHECK_VALUE(sti != 0, "step must be nonzero");  // the step truncated to 0: a ValueError in PyTorch
    // Exact in 128 bits: near the int64 limits the difference overflows int64
    // (PyTorch's count wraps there; see docs/CORRECTNESS.md).
    const __int128 span = static_cast<__int128>(ei) - si, stride128 = sti;
    const __int128 count = sti > 0 ? (span + stride128 - 1) / stride128 : (-span - stride128 - 1) / -stride128;
    TORCH_CHECK(count <= std::numeric_limits<int64_t>::max(), "invalid size, possible overflow?");
    n = std::max<int64_t>(0, static_cast<int64_t>(count));
    first = si;
    stride = sti;
  }
  Tensor result = at::empty({n}, type, device);
  if (n > 0) arange_stub(result.device().type, result, first, stride);
  return result;
}

Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor t = at::empty(size, dtype, device);
  return t.uniform_(0, 1);
}

Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor t = at::empty(size, dtype, device);
  return t.normal_(0, 1);
}

const Tensor& uniform_(const Tensor& self, double from, double to) {
  // PyTorch's kernels raise NotImplementedError for other dtypes, naming themselves (before the range check).
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"check_uniform_bounds\" not implemented for '",
                              self.scalar_type(), "'");
  TORCH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  uniform_stub(self.device().type, self, from, to);
  return self;
}

const Tensor& bernoulli_scalar_(const Tensor& self, double p) {
  TORCH_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  if (self.numel() == 0) return self;
  if (self.device().type == DeviceType::CPU) {
    bernoulli_scalar_stub(DeviceType::CPU, self, p);
  } else {
    const Tensor u = at::empty(self.sizes(), ScalarType::Float, self.device()).uniform_(0, 1);
    self.copy_(u.lt(scalar_tensor(p, ScalarType::Float, self.device())));
  }
  return self;
}

const Tensor& normal_(const Tensor& self, double mean, double std) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  // An empty tensor returns before PyTorch's kernel would refuse its dtype.
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point() || self.numel() == 0, "\"normal_kernel_cpu\" not "
                              "implemented for '", self.scalar_type(), "'");
  if (self.numel() == 0) return self;
  normal_stub(self.device().type, self, mean, std);
  return self;
}

const Tensor& zero_(const Tensor& self) { return self.fill_(0); }

const Tensor& resize_(const Tensor& self, IntArrayRef size) {
  if (self.sizes().equals(size)) return self;
  int64_t numel = 1;
  for (int64_t s : size) {
    TORCH_CHECK(s >= 0, "Trying to resize tensor with negative dimension ", s, ": ", size);
    numel *= s;
  }
  c10::TensorImpl* impl = self.unsafeGetTensorImpl();
  const size_t needed = (numel + self.storage_offset()) * self.element_size();
  if (needed > self.storage().nbytes()) {
    auto storage = allocate_on(self.device(), needed);
    impl->set_storage(std::move(storage));
  }
  impl->set_sizes_contiguous(size);
  return self;
}

}  // namespace at::native

namespace at::native {

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                std::optional<Device> device) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  const ScalarType type = dtype.value_or(c10::get_default_dtype());
  // One step is a fill with `start`, which bool has; more need the kernel, which it has not.
  TORCH_CHECK_NOT_IMPLEMENTED(type != ScalarType::Bool || steps <= 1, "\"linspace_cpu\" not implemented for 'Bool'");
  Tensor result = at::empty({steps}, type, device);
  if (steps == 0) return result;
  if (steps == 1) return result.fill_(start);
  // PyTorch converts the ends to the dtype, checked (one step fills with `start` alone).
  check_scalar_fits(start, type);
  if (steps > 1) check_scalar_fits(end, type);
  // The ends in the dtype first, as PyTorch converts them (an integer
  // linspace from 1.5 starts at 1), then each value in double from the
  // nearer end, so the last one is `end`; written straight into a CPU
  // result, a block per thread.
  const bool integral = isIntegralType(type, /*includeBool=*/false);
  const double s = integral ? static_cast<double>(start.to<int64_t>()) : start.toDouble();
  const double e = integral ? static_cast<double>(end.to<int64_t>()) : end.toDouble();
  const double step = (e - s) / static_cast<double>(steps - 1);
  const int64_t half = steps / 2;
  Tensor target = result.is_cpu() ? result : at::empty({steps}, ScalarType::Double, Device(DeviceType::CPU));
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(target.scalar_type(), "linspace_cpu", [&] {
    scalar_t* p = target.data_ptr<scalar_t>();
    at::parallel_for(0, steps, kGrainSize, [&](int64_t begin, int64_t finish) {
      for (int64_t i = begin; i < finish; ++i) {
        p[i] = static_cast<scalar_t>(i < half ? s + step * static_cast<double>(i)
                                              : e - step * static_cast<double>(steps - 1 - i));
      }
    });
  });
  return result.is_cpu() ? result : result.copy_(target);
}

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::eye(n, n, dtype, device);
}

Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Device> device) {
  TORCH_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  const int64_t cols = m;
  TORCH_CHECK(cols >= 0, "m must be greater or equal to 0, got ", cols);
  Tensor result = at::zeros({n, cols}, dtype, device);
  const int64_t k = std::min(n, cols);
  if (k > 0) result.as_strided({k}, {cols + 1}, 0).fill_(1);
  return result;
}

// The (row, column) indices of the lower (upper) triangle of a row x col
// matrix, diagonal `offset` included, in row-major order: a [2, count]
// tensor. Row r keeps columns [0, r + offset] of the lower triangle and
// [r + offset, col) of the upper one. Built on the CPU and moved.
namespace {
Tensor triangle_indices(const char* op, int64_t row, int64_t col, int64_t offset, bool upper,
                        std::optional<ScalarType> dtype, std::optional<Device> device) {
  TORCH_CHECK(row >= 0, "row must be non-negative, got", row);
  TORCH_CHECK(col >= 0, "col must be non-negative, got", col);
  const ScalarType type = dtype.value_or(ScalarType::Long);
  // PyTorch's CPU kernel takes int32 and int64 only.
  TORCH_CHECK_NOT_IMPLEMENTED(type == ScalarType::Int || type == ScalarType::Long, "\"", op,
                              "\" not implemented for '", type, "'");
  auto first = [&](int64_t r) { return upper ? std::clamp<int64_t>(r + offset, 0, col) : int64_t(0); };
  auto end = [&](int64_t r) { return upper ? col : std::clamp<int64_t>(r + offset + 1, 0, col); };
  int64_t count = 0;
  for (int64_t r = 0; r < row; ++r) count += std::max<int64_t>(end(r) - first(r), 0);
  Tensor result = at::empty({2, count}, type, Device(kCPU));
  AT_DISPATCH_INTEGRAL_TYPES(type, op, [&] {
    scalar_t* rows = result.data_ptr<scalar_t>();
    scalar_t* cols = rows + count;
    int64_t i = 0;
    for (int64_t r = 0; r < row; ++r) {
      for (int64_t c = first(r); c < end(r); ++c, ++i) {
        rows[i] = static_cast<scalar_t>(r);
        cols[i] = static_cast<scalar_t>(c);
      }
    }
  });
  return device && !device->is_cpu() ? result.to(*device, type) : result;
}
}  // namespace

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                    std::optional<Device> device) {
  return triangle_indices("tril_indices", row, col, offset, false, dtype, device);
}

Tensor triu_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                    std::optional<Device> device) {
  return triangle_indices("triu_indices", row, col, offset, true, dtype, device);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Device> device) {
  Tensor t = at::empty(size, dtype.value_or(ScalarType::Long), device);
  return t.random_(low, high);
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::randint(0, high, size, dtype, device);
}

Tensor randperm_cpu(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device) {
  TORCH_CHECK(n >= 0, "n must be non-negative, got", n);
  TORCH_CHECK_NOT_IMPLEMENTED(dtype != ScalarType::Bool, "\"randperm\" not implemented for 'Bool'");
  Tensor perm = at::arange(n, ScalarType::Long, device);
  int64_t* p = perm.data_ptr<int64_t>();
  auto& gen = default_cpu_generator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  for (int64_t i = n - 1; i > 0; --i) {  // Fisher-Yates
    const int64_t j = static_cast<int64_t>(gen.random64() % static_cast<uint64_t>(i + 1));
    std::swap(p[i], p[j]);
  }
  return perm.to(dtype.value_or(ScalarType::Long));
}

// A permutation is a sequential shuffle: drawn on the host (from the CPU
// generator, which torch.manual_seed seeds too) and copied to the device.
Tensor randperm_cuda(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor target = empty_cuda({0}, ScalarType::Long, device);  // checks the device before any work
  return randperm_cpu(n, dtype, std::nullopt).to(target.device(), std::nullopt, false, false);
}

namespace {

// [from, to - 1] must be representable in an integer dtype (PyTorch names the
// C++ type: "from is out of bounds for unsigned char").
void check_random_bounds(ScalarType t, int64_t from, int64_t to) {
  int64_t lo = 0, hi = 0;
  const char* name = nullptr;
  switch (t) {
    case ScalarType::Bool: lo = 0, hi = 1, name = "bool"; break;
    case ScalarType::Byte: lo = 0, hi = 255, name = "unsigned char"; break;
    case ScalarType::Char: lo = -128, hi = 127, name = "signed char"; break;
    case ScalarType::Short: lo = -32768, hi = 32767, name = "short int"; break;
    case ScalarType::Int: lo = INT32_MIN, hi = INT32_MAX, name = "int"; break;
    case ScalarType::Half: lo = -65504, hi = 65504, name = "c10::Half"; break;
    default: return;  // int64, and floats whose range holds every int64
  }
  TORCH_CHECK(from >= lo && from <= hi, "from is out of bounds for ", name);
  TORCH_CHECK(to - 1 >= lo && to - 1 <= hi, "to - 1 is out of bounds for ", name);
}

}  // namespace

// The largest value random_ draws without a `to`: every integer up to it is
// exact in the dtype (2^digits for floats), as in PyTorch.
int64_t random_to_inclusive(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return 1;
    case ScalarType::Byte: return 255;
    case ScalarType::Char: return 127;
    case ScalarType::Short: return 32767;
    case ScalarType::Int: return INT32_MAX;
    case ScalarType::Half: return int64_t{1} << 11;
    case ScalarType::BFloat16: return int64_t{1} << 8;
    case ScalarType::Float: return int64_t{1} << 24;
    case ScalarType::Double: return int64_t{1} << 53;
    default: return std::numeric_limits<int64_t>::max();
  }
}

const Tensor& random_(const Tensor& self, int64_t from, std::optional<int64_t> to) {
  if (to) {
    TORCH_CHECK(from < *to, "random_ expects 'from' to be less than 'to', but got from=", from, " >= to=", *to);
    check_random_bounds(self.scalar_type(), from, *to);
    random_stub(self.device().type, self, from, *to);
    return self;
  }
  const int64_t to_inc = random_to_inclusive(self.scalar_type());
  TORCH_CHECK(!self.is_floating_point() || from < to_inc, "random_ expects 'from' casted to dtype to be less than or "
              "equal to 'to_inc' casted to dtype, but got from=", from, " > to_inc=", to_inc);
  check_random_bounds(self.scalar_type(), from, to_inc == std::numeric_limits<int64_t>::max() ? to_inc : to_inc + 1);
  // int64's full range leaves out its largest value (to is exclusive).
  random_stub(self.device().type, self, from, to_inc == std::numeric_limits<int64_t>::max() ? to_inc : to_inc + 1);
  return self;
}
const Tensor& random_(const Tensor& self, int64_t to) { return native::random_(self, 0, std::optional<int64_t>(to)); }
const Tensor& random_(const Tensor& self) { return native::random_(self, 0, std::nullopt); }

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Device> device) {
  return at::empty_like(self, dtype, device).fill_(fill_value);
}

Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::empty_like(self, dtype, device).uniform_(0, 1);
}

Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return at::empty_like(self, dtype, device).normal_(0, 1);
}

}  // namespace at::native
