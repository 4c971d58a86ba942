#pragma once
// TensorIterator: the shared "meta" step of every elementwise operator. It
// broadcasts the operands, decides the dtype the kernel computes in (type
// promotion), casts inputs to it, allocates or checks outputs, merges
// dimensions that can be walked as one, and then feeds the kernel 2-D blocks
// of strided pointers, in parallel for large tensors.
//
//   auto iter = TensorIteratorConfig().add_output(out).add_input(a).add_input(b)
//                   .promote_inputs_to_common_dtype(true).build();
//   cpu_kernel(iter, [](float x, float y) { return x + y; });   // native/cpu/Loops.h
#include <ATen/core/TensorBody.h>
#include <c10/util/SmallVector.h>

#include <functional>

namespace at {

struct OperandInfo {
  Tensor tensor;             // what the kernel reads or writes
  Tensor original;           // an output computed in a temporary, copied back at the end;
                             // an input as given, before its cast to the common dtype
  bool is_output = false;
  c10::SmallVector<int64_t, 6> stride_bytes;  // per iterator dim; dim 0 is the innermost
  char* data = nullptr;
};

class TensorIterator;

class TORCH_API TensorIteratorConfig {
 public:
  // An undefined output is allocated with the broadcast shape.
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  // Compute in the promoted dtype of the inputs (casting the others).
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) { promote_ = v; return *this; }
  // ...and lift integer and bool results to the default float dtype (exp, div).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) { int_to_float_ = v; return *this; }
  // Outputs get this dtype whatever the inputs are (comparisons give bool).
  TensorIteratorConfig& declare_static_output_dtype(ScalarType t) { static_dtype_ = t; return *this; }
  // Leave dtypes alone: the kernel handles mixed dtypes itself (copy_).
  TensorIteratorConfig& check_all_same_dtype(bool v) { same_dtype_ = v; return *this; }
  // Whether an output of the wrong shape may be resized (out=) or is an error (in-place).
  TensorIteratorConfig& resize_outputs(bool v) { resize_ = v; return *this; }
  // Whether to refuse outputs whose elements alias (expanded) or that overlap
  // an input in part; off for writes of one value (fill_), as in PyTorch.
  TensorIteratorConfig& check_mem_overlap(bool v) { check_overlap_ = v; return *this; }
  TensorIterator build();

 private:
  friend class TensorIterator;
  c10::SmallVector<Tensor, 4> tensors_;  // outputs first
  int num_outputs_ = 0;
  bool promote_ = false;
  bool int_to_float_ = false;
  bool same_dtype_ = true;
  bool resize_ = true;
  bool check_overlap_ = true;
  ScalarType static_dtype_ = ScalarType::Undefined;
};

class TORCH_API TensorIterator {
 public:
  // data[k]: operand k's pointer; strides[k] and strides[ntensors + k]: its
  // byte strides along the inner and outer dimension of the block.
  using loop2d_t = std::function<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return ntensors() - num_outputs_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t numel() const;
  // The dtype the kernel computes in (all operands share it unless
  // check_all_same_dtype(false) or a static output dtype was asked for).
  ScalarType common_dtype() const { return common_dtype_; }
  ScalarType dtype(int k) const { return operands_[k].tensor.scalar_type(); }
  Device device() const { return device_; }
  const Tensor& output(int k = 0) const;
  const Tensor& input(int k = 0) const { return operands_[num_outputs_ + k].tensor; }
  // Whether operand k is a single value repeated everywhere.
  bool is_scalar(int k) const;
  // That value as the caller gave it, before any cast to the common dtype
  // (PyTorch's original_scalar_value: float16 `h * 70000` multiplies by 70000, not inf).
  Scalar original_scalar_value(int k) const;
  bool is_contiguous() const;

  // For device loops (native/cuda/Loops.cuh), which walk the iterator
  // themselves: the shape (innermost dim first), operand k's byte strides
  // along it and its data pointer.
  IntArrayRef shape() const { return IntArrayRef(shape_.data(), shape_.size()); }
  const int64_t* strides(int k) const { return operands_[k].stride_bytes.data(); }
  char* data_ptr(int k) const { return operands_[k].data; }

  void for_each(const loop2d_t& loop, int64_t grain_size = 32768) const;
  void serial_for_each(const loop2d_t& loop, int64_t begin, int64_t end) const;

  // Copies outputs that were computed into temporaries back into the
  // tensors the caller gave; each operator calls this after its kernel.
  void finish();

 private:
  friend class TensorIteratorConfig;
  // Caller-given outputs: no element aliasing another, no input overlapping them in part.
  void check_mem_overlap() const;
  void compute_shape(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  void allocate_or_resize_outputs(const TensorIteratorConfig& config);
  void compute_strides();
  void coalesce_dimensions();

  c10::SmallVector<OperandInfo, 4> operands_;
  c10::SmallVector<int64_t, 6> shape_;          // broadcast shape, innermost first after compute_strides
  c10::SmallVector<int64_t, 6> logical_shape_;  // the broadcast shape in the usual order
  int num_outputs_ = 0;
  ScalarType common_dtype_ = ScalarType::Undefined;
  Device device_;
};

}  // namespace at
