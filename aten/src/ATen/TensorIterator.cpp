#include <ATen/TensorIterator.h>

#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/TypePromotion.h>
#include <ATen/core/TensorMethods.h>
#include <ATen/native/DispatchStub.h>

#include <cstdlib>

namespace at {

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  TORCH_INTERNAL_ASSERT(num_outputs_ == static_cast<int>(tensors_.size()), "add outputs before inputs");
  tensors_.push_back(t);
  num_outputs_++;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  TORCH_INTERNAL_ASSERT(t.defined(), "TensorIterator: undefined input");
  tensors_.push_back(t);
  return *this;
}

TensorIterator TensorIteratorConfig::build() {
  TensorIterator iter;
  iter.num_outputs_ = num_outputs_;
  for (size_t k = 0; k < tensors_.size(); ++k) {
    OperandInfo op;
    op.tensor = tensors_[k];
    op.is_output = static_cast<int>(k) < num_outputs_;
    iter.operands_.push_back(std::move(op));
  }
  if (check_overlap_) iter.check_mem_overlap();
  iter.compute_shape(*this);
  iter.compute_types(*this);
  iter.allocate_or_resize_outputs(*this);
  iter.compute_strides();
  iter.coalesce_dimensions();
  return iter;
}

void TensorIterator::check_mem_overlap() const {
  for (const auto& out : operands_) {
    if (!out.is_output || !out.tensor.defined()) continue;
    assert_no_internal_overlap(out.tensor);
    for (const auto& in : operands_) {
      if (!in.is_output) assert_no_partial_overlap(out.tensor, in.tensor);
    }
  }
}

void TensorIterator::compute_shape(const TensorIteratorConfig& config) {
  // Outputs that may not be resized (in-place, copy_) take part in the
  // broadcast, so the check below reports inputs that would need a larger output.
  bool first = true;
  for (const auto& op : operands_) {
    if (!op.tensor.defined() || (op.is_output && config.resize_)) continue;
    if (first) {
      logical_shape_.assign(op.tensor.sizes().begin(), op.tensor.sizes().end());
    } else if (!op.tensor.sizes().equals(logical_shape_)) {
      const std::vector<int64_t> shape = infer_size(logical_shape_, op.tensor.sizes());
      logical_shape_.assign(shape.begin(), shape.end());
    }
    first = false;
  }
  for (const auto& op : operands_) {
    if (!op.is_output || !op.tensor.defined()) continue;
    if (first) {  // no inputs (fill): the output decides
      logical_shape_.assign(op.tensor.sizes().begin(), op.tensor.sizes().end());
      first = false;
      continue;
    }
    const bool same = op.tensor.sizes().equals(logical_shape_);
    TORCH_CHECK(same || config.resize_, "output with shape ", op.tensor.sizes(),
                " doesn't match the broadcast shape ", IntArrayRef(logical_shape_.data(), logical_shape_.size()));
  }
}

void TensorIterator::compute_types(const TensorIteratorConfig& config) {
  // Device: every defined operand must agree, except 0-d CPU inputs (Python
  // numbers and the like), which may join tensors of any device, as in PyTorch.
  auto cpu_scalar = [](const OperandInfo& op) { return !op.is_output && op.tensor.dim() == 0 && op.tensor.is_cpu(); };
  bool have_device = false;
  for (int pass = 0; pass < 2 && !have_device; ++pass) {
    for (const auto& op : operands_) {
      if (op.tensor.defined() && (pass == 1 || !cpu_scalar(op))) {
        device_ = op.tensor.device();
        have_device = true;
        break;
      }
    }
  }
  for (const auto& op : operands_) {
    if (!op.tensor.defined() || op.tensor.device() == device_) continue;
    TORCH_CHECK(cpu_scalar(op), "Expected all tensors to be on the same device, but found at least two devices, ",
                device_.str(), " and ", op.tensor.device().str(), "!");
  }

  const OperandInfo* first_input = nullptr;
  ResultTypeState state;
  for (const auto& op : operands_) {
    if (op.is_output) continue;
    if (!first_input) first_input = &op;
    state.update(op.tensor);
  }
  if (config.promote_) {
    common_dtype_ = state.result();
    if (config.int_to_float_ && c10::isIntegralType(common_dtype_, true)) common_dtype_ = c10::get_default_dtype();
  } else if (first_input) {
    common_dtype_ = first_input->tensor.scalar_type();
  } else {
    common_dtype_ = operands_[0].tensor.scalar_type();
  }

  const ScalarType out_dtype =
      config.static_dtype_ != ScalarType::Undefined ? config.static_dtype_ : common_dtype_;
  for (auto& op : operands_) {
    if (!op.tensor.defined()) continue;
    const ScalarType t = op.tensor.scalar_type();
    if (!config.same_dtype_ && !config.promote_) continue;  // kernel copes with mixed dtypes
    if (!config.promote_) {
      const ScalarType want = op.is_output ? out_dtype : common_dtype_;
      TORCH_CHECK(t == want, "expected scalar type ", want, " but found ", t);
      continue;
    }
    if (op.is_output) {
      if (t == out_dtype) continue;
      TORCH_CHECK(canCast(out_dtype, t), "result type ", out_dtype, " can't be cast to the desired output type ", t);
      // Compute in the common dtype, then copy into the caller's tensor.
      op.original = op.tensor;
      op.tensor = Tensor();
    } else if (t != common_dtype_) {
      Tensor cast;
      if (op.tensor.dim() == 0 && op.tensor.is_cpu()) {
        cast = scalar_tensor_of(at::_local_scalar_dense(op.tensor), common_dtype_);  // `t + 2`: no copy kernel
      } else {
        cast = at::empty(op.tensor.sizes(), common_dtype_, op.tensor.device());
        cast.copy_(op.tensor);
      }
      cast.unsafeGetTensorImpl()->set_wrapped_number(op.tensor.unsafeGetTensorImpl()->is_wrapped_number());
      op.original = op.tensor;
      op.tensor = cast;
    }
  }
  // A device kernel reads device memory: CPU scalars travel there, as the
  // argument of a fill kernel (a copy would wait for the device to be idle).
  if (!device_.is_cpu()) {
    for (auto& op : operands_) {
      if (!op.tensor.defined() || op.tensor.device() == device_) continue;
      Tensor moved = at::empty({}, op.tensor.scalar_type(), device_);
      moved.fill_(at::_local_scalar_dense(op.tensor));
      op.tensor = moved;
    }
  }
}

void TensorIterator::allocate_or_resize_outputs(const TensorIteratorConfig& config) {
  const ScalarType out_dtype =
      config.static_dtype_ != ScalarType::Undefined ? config.static_dtype_ : common_dtype_;
  for (auto& op : operands_) {
    if (!op.is_output) continue;
    // An out= tensor of another dtype is computed in a temporary (finish()
    // copies it back): the caller's tensor takes the result's shape too.
    if (op.original.defined() && !op.original.sizes().equals(logical_shape_)) op.original.resize_(logical_shape_);
    if (!op.tensor.defined()) {
      op.tensor = at::empty(logical_shape_, out_dtype, device_);
    } else if (!op.tensor.sizes().equals(logical_shape_)) {
      op.tensor.resize_(logical_shape_);
    }
  }
}

void TensorIterator::compute_strides() {
  const int nd = static_cast<int>(logical_shape_.size());
  shape_.clear();
  for (size_t i = logical_shape_.size(); i-- > 0;) shape_.push_back(logical_shape_[i]);
  for (auto& op : operands_) {
    const Tensor& t = op.tensor;
    op.stride_bytes.assign(nd, 0);
    const int offset = nd - static_cast<int>(t.dim());  // broadcast adds leading dims
    const int64_t itemsize = t.element_size();
    for (int i = 0; i < t.dim(); ++i) {
      const int64_t stride = t.size(i) == 1 ? 0 : t.stride(i) * itemsize;
      op.stride_bytes[nd - 1 - (i + offset)] = stride;
    }
    op.data = static_cast<char*>(t.data_ptr());
  }
}

void TensorIterator::coalesce_dimensions() {
  if (ndim() <= 1) return;
  // Dims i and i+1 merge when stepping over dim i lands exactly on the next
  // step of dim i+1, for every operand.
  auto can_merge = [&](int inner, int outer) {
    if (shape_[inner] == 1 || shape_[outer] == 1) return true;
    for (auto& op : operands_)
      if (op.stride_bytes[inner] * shape_[inner] != op.stride_bytes[outer]) return false;
    return true;
  };
  int prev = 0;
  for (int dim = 1; dim < ndim(); ++dim) {
    if (can_merge(prev, dim)) {
      if (shape_[prev] == 1)
        for (auto& op : operands_) op.stride_bytes[prev] = op.stride_bytes[dim];
      shape_[prev] *= shape_[dim];
    } else {
      prev++;
      if (prev != dim) {
        for (auto& op : operands_) op.stride_bytes[prev] = op.stride_bytes[dim];
        shape_[prev] = shape_[dim];
      }
    }
  }
  shape_.resize(prev + 1);
  for (auto& op : operands_) op.stride_bytes.resize(prev + 1);
}

int64_t TensorIterator::numel() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

const Tensor& TensorIterator::output(int k) const {
  const auto& op = operands_[k];
  return op.original.defined() ? op.original : op.tensor;
}

Scalar TensorIterator::original_scalar_value(int k) const {
  const auto& op = operands_[k];
  const Tensor& t = op.original.defined() ? op.original : op.tensor;
  return at::_local_scalar_dense(t.numel() == 1 ? t : t.reshape({-1}).narrow(0, 0, 1));
}

bool TensorIterator::is_scalar(int k) const {
  // An empty iteration has no value to read: an empty tensor with all-zero
  // strides (numpy's) would otherwise pass, and a kernel read its data.
  if (numel() == 0) return false;
  for (int64_t s : operands_[k].stride_bytes)
    if (s != 0) return false;
  return true;
}

bool TensorIterator::is_contiguous() const {
  if (ndim() > 1) return false;
  for (const auto& op : operands_)
    if (ndim() == 1 && op.stride_bytes[0] != op.tensor.element_size()) return false;
  return true;
}

void TensorIterator::serial_for_each(const loop2d_t& loop, int64_t begin, int64_t end) const {
  const int nt = ntensors();
  const int nd = ndim();
  // Stack buffers: this runs once per call (per chunk when parallel), so no heap.
  constexpr int kMaxOperands = 8, kMaxDims = 25;
  TORCH_INTERNAL_ASSERT(nt <= kMaxOperands && nd <= kMaxDims, "TensorIterator: too many operands or dims");
  char* ptrs[kMaxOperands];
  int64_t strides[2 * kMaxOperands] = {};
  for (int k = 0; k < nt; ++k) {
    if (nd >= 1) strides[k] = operands_[k].stride_bytes[0];
    if (nd >= 2) strides[nt + k] = operands_[k].stride_bytes[1];
  }
  if (nd == 0) {
    for (int k = 0; k < nt; ++k) ptrs[k] = operands_[k].data;
    loop(ptrs, strides, 1, 1);
    return;
  }
  // The multi-index of `begin`, innermost first.
  int64_t index[kMaxDims] = {};
  int64_t rest = begin;
  for (int d = 0; d < nd; ++d) {
    index[d] = rest % shape_[d];
    rest /= shape_[d];
  }
  int64_t pos = begin;
  while (pos < end) {
    for (int k = 0; k < nt; ++k) {
      char* p = operands_[k].data;
      for (int d = 0; d < nd; ++d) p += index[d] * operands_[k].stride_bytes[d];
      ptrs[k] = p;
    }
    int64_t size0 = std::min(shape_[0] - index[0], end - pos);
    int64_t size1 = 1;
    if (nd >= 2 && index[0] == 0 && size0 == shape_[0]) {
      size1 = std::min(shape_[1] - index[1], (end - pos) / shape_[0]);
    }
    loop(ptrs, strides, size0, size1);
    pos += size0 * size1;
    // Advance the multi-index; size1 > 1 only when whole rows were taken.
    index[0] += size0;
    if (nd >= 2 && index[0] == shape_[0]) {
      index[0] = 0;
      index[1] += size1;
    }
    for (int d = 1; d < nd - 1 && index[d] >= shape_[d]; ++d) {
      index[d] = 0;
      index[d + 1]++;
    }
  }
}

void TensorIterator::for_each(const loop2d_t& loop, int64_t grain_size) const {
  const int64_t n = numel();
  if (n == 0) return;
  if (n < grain_size || get_num_threads() == 1) {
    serial_for_each(loop, 0, n);
    return;
  }
  parallel_for(0, n, grain_size, [&](int64_t b, int64_t e) { serial_for_each(loop, b, e); });
}

void TensorIterator::finish() {
  for (auto& op : operands_) {
    if (op.is_output && op.original.defined()) {
      op.original.copy_(op.tensor);
    }
  }
}

}  // namespace at

namespace at::native {

bool wide_copy_applies(const TensorIterator& iter, WideOperands operands) {
  if (iter.ndim() == 0) return false;  // serial_for_each passes zero strides: cpu_kernel's strided loop
  const bool bool_operands = operands == WideOperands::FloatingAndBool;
  bool floating_input = false;
  for (int k = 0; k < iter.ntensors(); ++k) {
    const ScalarType dtype = iter.dtype(k);
    if (isFloatingType(dtype)) {
      floating_input = floating_input || k >= iter.noutputs();
    } else if (operands != WideOperands::Any && !(bool_operands && dtype == ScalarType::Bool)) {
      return false;
    }
    const int64_t stride = iter.strides(k)[0], size = static_cast<int64_t>(elementSize(dtype));
    if (stride != size && (k < iter.noutputs() || stride != 0)) return false;
  }
  return floating_input || !bool_operands;
}

bool wide_copy_applies(const Tensor& tensor, WideOperands operands) {
  return !tensor.defined() || isFloatingType(tensor.scalar_type()) || operands == WideOperands::Any ||
         (operands == WideOperands::FloatingAndBool && tensor.scalar_type() == ScalarType::Bool);
}

void wide_copy_reached(const char* what) {
  TORCH_INTERNAL_ASSERT(false, what, " reached a wide (AVX2/AVX512) CPU kernel copy, which holds floating cases only: "
                        "native/DispatchStub.h sends such calls to the DEFAULT copy");
  std::abort();  // not reached: the assertion throws
}

}  // namespace at::native
