// View ops: new geometry over the same storage, never a copy (except
// reshape/flatten, which copy only when no view can express the result).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/TypePromotion.h>

#include <algorithm>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>
#include <optional>
#include <vector>

namespace at::native {
namespace {

// A view of self's storage with the given geometry, read as `dtype`.
Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides, int64_t offset, ScalarType dtype) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(self.storage(), dtype, self.device());
  impl->set_sizes_and_strides(sizes, strides, offset);
  auto* self_impl = self.unsafeGetTensorImpl();
  impl->set_version_counter(self_impl->version_counter());
  impl->set_view_base(self_impl->is_view() ? self_impl->view_base() : self.getIntrusivePtr());
  return Tensor(std::move(impl));
}

Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  return make_view(self, sizes, strides, offset, self.scalar_type());
}

// Resolves a single -1 in `shape` against `numel`.
std::vector<int64_t> infer_size(IntArrayRef shape, int64_t numel) {
  std::vector<int64_t> out = shape.vec();
  int64_t known = 1;
  std::optional<size_t> infer;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      TORCH_CHECK(!infer, "only one dimension can be inferred");
      infer = i;
    } else {
      TORCH_CHECK(out[i] >= 0, "invalid shape dimension ", out[i]);
      known *= out[i];
    }
  }
  if (infer) {
    TORCH_CHECK(known != 0, "cannot reshape tensor of 0 elements into shape ", shape,
                " because the unspecified dimension size -1 can be any value and is ambiguous");
    TORCH_CHECK(numel % known == 0, "shape '", shape, "' is invalid for input of size ", numel);
    out[*infer] = numel / known;
  } else {
    TORCH_CHECK(known == numel, "shape '", shape, "' is invalid for input of size ", numel);
  }
  return out;
}

// Strides that let `sizes` view a tensor with `old_sizes`/`old_strides`, or
// nothing when some new dimension would span non-uniformly strided memory.
std::optional<std::vector<int64_t>> compute_stride(IntArrayRef old_sizes, IntArrayRef old_strides,
                                                   IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t numel = 1;
  for (int64_t s : old_sizes) numel *= s;
  if (numel == 0 || old_sizes.empty()) {
    int64_t stride = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
      strides[i] = stride;
      stride *= std::max<int64_t>(sizes[i], 1);
    }
    return strides;
  }
  // Walk the old dims from the back, grouping those that are contiguous with
  // each other ("chunks"); each chunk must be matched by whole new dims.
  int64_t view_d = static_cast<int64_t>(sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_sizes.size()) - 1; d >= 0; d--) {
    tensor_numel *= old_sizes[d];
    if (d == 0 || (old_sizes[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
        strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= sizes[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = old_strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return strides;
}

}  // namespace

Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset) {
  TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (int64_t s : stride) TORCH_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
  return make_view(self, size, stride, storage_offset.value_or(self.storage_offset()));
}

Tensor view(const Tensor& self, IntArrayRef size) {
  const std::vector<int64_t> shape = infer_size(size, self.numel());
  auto strides = compute_stride(self.sizes(), self.strides(), shape);
  TORCH_CHECK(strides.has_value(),
              "view size is not compatible with input tensor's size and stride (at least one dimension spans "
              "across two contiguous subspaces). Use .reshape(...) instead.");
  return make_view(self, shape, *strides, self.storage_offset());
}

// The same bytes read as another dtype, PyTorch's rules: with a different
// element size the last dim (stride 1) shrinks or grows by the ratio, and
// the other strides and the offset must convert exactly.
Tensor view_dtype(const Tensor& self, ScalarType dtype) {
  const int64_t from = self.element_size(), to = static_cast<int64_t>(c10::elementSize(dtype));
  if (from == to) return make_view(self, self.sizes(), self.strides(), self.storage_offset(), dtype);
  const char* const from_name = c10::toString(self.scalar_type());
  const char* const to_name = c10::toString(dtype);
  TORCH_CHECK(self.dim() > 0, "self.dim() cannot be 0 to view ", from_name, " as ", to_name,
              " (different element sizes)");
  const int64_t last = self.dim() - 1;
  std::vector<int64_t> sizes = self.sizes().vec(), strides = self.strides().vec();
  int64_t offset = self.storage_offset();
  if (to > from) {
    const int64_t ratio = to / from;
    TORCH_CHECK(sizes[last] % ratio == 0, "self.size(-1) must be divisible by ", ratio, " to view ", from_name,
                " as ", to_name, " (different element sizes), but got ", sizes[last]);
    TORCH_CHECK(strides[last] == 1, "self.stride(-1) must be 1 to view ", from_name, " as ", to_name,
                " (different element sizes), but got ", strides[last]);
    TORCH_CHECK(offset % ratio == 0, "self.storage_offset() must be divisible by ", ratio, " to view ", from_name,
                " as ", to_name, " (different element sizes), but got ", offset);
    for (int64_t d = 0; d < last; ++d) {
      TORCH_CHECK(strides[d] % ratio == 0, "self.stride(", d, ") must be divisible by ", ratio, " to view ",
                  from_name, " as ", to_name, " (different element sizes), but got ", strides[d]);
      strides[d] /= ratio;
    }
    sizes[last] /= ratio;
    offset /= ratio;
  } else {
    const int64_t ratio = from / to;
    TORCH_CHECK(strides[last] == 1, "self.stride(-1) must be 1 to view ", from_name, " as ", to_name,
                " (different element sizes), but got ", strides[last]);
    for (int64_t d = 0; d < last; ++d) strides[d] *= ratio;
    sizes[last] *= ratio;
    offset *= ratio;
  }
  return make_view(self, sizes, strides, offset, dtype);
}

// A complex tensor as its parts: one more dim of size 2 (real, imaginary).
Tensor view_as_real(const Tensor& self) {
  TORCH_CHECK(c10::isComplexType(self.scalar_type()), "view_as_real is only supported for complex tensors");
  std::vector<int64_t> sizes = self.sizes().vec(), strides = self.strides().vec();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return make_view(self, sizes, strides, self.storage_offset() * 2, c10::toRealValueType(self.scalar_type()));
}

// The inverse: a last dim of size 2 and stride 1 becomes complex numbers.
Tensor view_as_complex(const Tensor& self) {
  const ScalarType t = self.scalar_type();
  TORCH_CHECK(t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half,
              "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: ",
              c10::toString(t));
  TORCH_CHECK(self.dim() != 0, "Input tensor must have one or more dimensions");
  TORCH_CHECK(self.size(-1) == 2, "Tensor must have a last dimension of size 2");
  TORCH_CHECK(self.stride(-1) == 1, "Tensor must have a last dimension with stride 1");
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end() - 1);
  std::vector<int64_t> strides(self.strides().begin(), self.strides().end() - 1);
  for (int64_t& s : strides) {
    TORCH_CHECK(s % 2 == 0, "Tensor must have a stride divisible by 2 for all but last dimension");
    s /= 2;
  }
  TORCH_CHECK(self.storage_offset() % 2 == 0, "Tensor must have a storage_offset divisible by 2");
  return make_view(self, sizes, strides, self.storage_offset() / 2, c10::toComplexType(t));
}

Tensor reshape(const Tensor& self, IntArrayRef shape) {
  const std::vector<int64_t> sizes = infer_size(shape, self.numel());
  // Through at:: ops (not make_view): reshape is composite, so autograd
  // records the view, alias or copy it is made of, with PyTorch's nodes.
  if (self.is_contiguous()) return self.view(sizes);
  if (auto strides = compute_stride(self.sizes(), self.strides(), sizes)) {
    return at::_reshape_alias(self, sizes, *strides);
  }
  return at::_unsafe_view(self.clone(), sizes);
}

Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride) {
  TORCH_CHECK(size.size() == stride.size(), "_reshape_alias: ", size.size(), " sizes but ", stride.size(),
              " strides");
  return make_view(self, size, stride, self.storage_offset());
}

Tensor _unsafe_view(const Tensor& self, IntArrayRef size) {
  const std::vector<int64_t> shape = infer_size(size, self.numel());
  auto strides = compute_stride(self.sizes(), self.strides(), shape);
  TORCH_CHECK(strides.has_value(), "_unsafe_view: size ", size, " is not a view of a tensor of size ", self.sizes(),
              " and stride ", self.strides());
  auto impl = c10::make_intrusive<c10::TensorImpl>(self.storage(), self.scalar_type(), self.device());
  impl->set_sizes_and_strides(shape, *strides, self.storage_offset());
  return Tensor(std::move(impl));
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  const int64_t nd = self.dim();
  start_dim = c10::maybe_wrap_dim(start_dim, nd);
  end_dim = c10::maybe_wrap_dim(end_dim, nd);
  TORCH_CHECK(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (nd == 0) return self.reshape({1});
  if (start_dim == end_dim) return self;  // nothing to merge: self itself, as in PyTorch
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + start_dim);
  int64_t merged = 1;
  for (int64_t d = start_dim; d <= end_dim; ++d) merged *= self.size(d);
  shape.push_back(merged);
  shape.insert(shape.end(), self.sizes().begin() + end_dim + 1, self.sizes().end());
  return self.reshape(shape);
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t nd = self.dim();
  dim0 = c10::maybe_wrap_dim(dim0, nd);
  dim1 = c10::maybe_wrap_dim(dim1, nd);
  if (nd == 0) return make_view(self, {}, {}, self.storage_offset());
  std::vector<int64_t> sizes = self.sizes().vec(), strides = self.strides().vec();
  std::swap(sizes[dim0], sizes[dim1]);
  std::swap(strides[dim0], strides[dim1]);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor t(const Tensor& self) {
  TORCH_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return self.dim() < 2 ? self.transpose(0, 0) : self.transpose(0, 1);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t nd = self.dim();
  TORCH_CHECK(static_cast<int64_t>(dims.size()) == nd,
              "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
              "desired ordering of dimensions i.e. input.dim() = ", nd, " is not equal to len(dims) = ", dims.size());
  std::vector<int64_t> sizes(nd), strides(nd);
  std::vector<bool> seen(nd, false);
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t d = c10::maybe_wrap_dim(dims[i], nd);
    TORCH_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.size(d);
    strides[i] = self.stride(d);
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor expand(const Tensor& self, IntArrayRef size) {
  const int64_t nd = self.dim();
  const int64_t new_nd = static_cast<int64_t>(size.size());
  TORCH_CHECK(new_nd >= nd, "expand(", self.scalar_type(), "{", self.sizes(), "}, size=", size,
              "): the number of sizes provided (", new_nd,
              ") must be greater or equal to the number of dimensions in the tensor (", nd, ")");
  std::vector<int64_t> sizes(new_nd), strides(new_nd);
  for (int64_t i = new_nd - 1; i >= 0; --i) {
    const int64_t old = i - (new_nd - nd);
    const int64_t old_size = old >= 0 ? self.size(old) : 1;
    const int64_t old_stride = old >= 0 ? self.stride(old) : 0;
    int64_t want = size[i];
    if (want == -1) {
      TORCH_CHECK(old >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      want = old_size;
    }
    TORCH_CHECK(want >= 0, "expand: invalid size ", want);
    if (old_size == want) {
      sizes[i] = want;
      strides[i] = old_stride;
    } else {
      TORCH_CHECK(old_size == 1, "The expanded size of the tensor (", want, ") must match the existing size (",
                  old_size, ") at non-singleton dimension ", i, ".  Target sizes: ", size,
                  ".  Tensor sizes: ", self.sizes());
      sizes[i] = want;
      strides[i] = 0;
    }
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  TORCH_CHECK_INDEX(self.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(index >= -size && index < size, "select(): index ", index, " out of range for tensor of size ",
                    self.sizes(), " at dimension ", dim);
  if (index < 0) index += size;
  std::vector<int64_t> sizes = self.sizes().vec(), strides = self.strides().vec();
  const int64_t offset = self.storage_offset() + index * strides[dim];
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return make_view(self, sizes, strides, offset);
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  TORCH_CHECK_INDEX(self.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  TORCH_CHECK(step > 0, "slice step must be positive");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(dim);
  auto clamp = [size](int64_t v) {
    if (v < 0) v += size;
    return std::min(std::max<int64_t>(v, 0), size);
  };
  const int64_t s = clamp(start.value_or(0));
  const int64_t e = std::max(s, clamp(end.value_or(size)));
  std::vector<int64_t> sizes = self.sizes().vec(), strides = self.strides().vec();
  const int64_t offset = self.storage_offset() + s * strides[dim];
  sizes[dim] = (e - s + step - 1) / step;
  strides[dim] *= step;
  return make_view(self, sizes, strides, offset);
}


namespace {

// The sizes and strides `self` has once the dims of `dims` (wrapped; all dims
// when nullopt) that have size 1 are removed.
std::pair<std::vector<int64_t>, std::vector<int64_t>> squeezed_geometry(const Tensor& self,
                                                                        std::optional<IntArrayRef> dims) {
  std::vector<bool> drop(self.dim(), !dims.has_value());
  if (dims) {
    for (int64_t d : *dims) {
      const int64_t w = c10::maybe_wrap_dim(d, self.dim());
      TORCH_CHECK(self.dim() == 0 || !drop[w], "dim ", w, " appears multiple times in the list of dims");
      if (self.dim() > 0) drop[w] = true;
    }
  }
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (drop[d] && self.size(d) == 1) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return {sizes, strides};
}

std::pair<std::vector<int64_t>, std::vector<int64_t>> unsqueezed_geometry(const Tensor& self, int64_t dim) {
  dim = c10::maybe_wrap_dim(dim, self.dim() + 1);
  std::vector<int64_t> sizes = self.sizes().vec(), strides = self.strides().vec();
  const int64_t stride = dim < self.dim() ? sizes[dim] * strides[dim] : 1;
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return {sizes, strides};
}

// The in-place forms change self's geometry, not its storage or values.
const Tensor& restride_(const Tensor& self, const std::pair<std::vector<int64_t>, std::vector<int64_t>>& g) {
  self.unsafeGetTensorImpl()->set_sizes_and_strides(g.first, g.second, self.storage_offset());
  return self;
}

}  // namespace

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const auto g = unsqueezed_geometry(self, dim);
  return make_view(self, g.first, g.second, self.storage_offset());
}

Tensor squeeze(const Tensor& self) {
  const auto g = squeezed_geometry(self, std::nullopt);
  return make_view(self, g.first, g.second, self.storage_offset());
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  const auto g = squeezed_geometry(self, IntArrayRef(dim));
  return make_view(self, g.first, g.second, self.storage_offset());
}

Tensor squeeze(const Tensor& self, IntArrayRef dims) {
  const auto g = squeezed_geometry(self, dims);
  return make_view(self, g.first, g.second, self.storage_offset());
}

const Tensor& squeeze_(const Tensor& self) { return restride_(self, squeezed_geometry(self, std::nullopt)); }
const Tensor& squeeze_(const Tensor& self, int64_t dim) {
  return restride_(self, squeezed_geometry(self, IntArrayRef(dim)));
}
const Tensor& squeeze_(const Tensor& self, IntArrayRef dims) { return restride_(self, squeezed_geometry(self, dims)); }
const Tensor& unsqueeze_(const Tensor& self, int64_t dim) { return restride_(self, unsqueezed_geometry(self, dim)); }

}  // namespace at::native

// ---- shape ops built on the views above, and the copying ones ----
namespace at::native {

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  dim = c10::maybe_wrap_dim(dim, self.dim());  // the dim first, as PyTorch checks
  TORCH_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      TORCH_CHECK(infer < 0, "unflatten: only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else {
      known *= sizes[i];
    }
  }
  TORCH_CHECK(infer >= 0 ? (known > 0 && self.size(dim) % known == 0) : known == self.size(dim),
              "unflatten: Provided sizes ", sizes, " don't multiply up to the size of dim ", dim, " (",
              self.size(dim), ") in the input tensor");
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + dim);
  for (int64_t s : sizes) shape.push_back(s == -1 ? self.size(dim) / known : s);
  shape.insert(shape.end(), self.sizes().begin() + dim + 1, self.sizes().end());
  return self.view(shape);
}

Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return self.expand(size); }

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  TORCH_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  TORCH_CHECK(length >= 0, "narrow(): length must be non-negative.");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(start >= -size && start <= size, "start out of range (expected to be in range of [", -size, ", ",
                    size, "], but got ", start, ")");
  if (start < 0) start += size;
  TORCH_CHECK(length >= 0 && start + length <= size, "start (", start, ") + length (", length,
              ") exceeds dimension size (", size, ").");
  return self.slice(dim, start, start + length, 1);
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    TORCH_CHECK(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
                split_sizes);
    total += s;
  }
  TORCH_CHECK(total == self.size(dim), "split_with_sizes expects split_sizes to sum exactly to ", self.size(dim),
              " (input tensor's size at dimension ", dim, "), but got split_sizes=", split_sizes);
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    parts.push_back(self.narrow(dim, start, s));
    start += s;
  }
  return parts;
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  TORCH_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.size(dim);
  TORCH_CHECK(split_size > 0 || size == 0, "split_size can only be 0 if dimension size is 0, but got dimension size of ",
              size);
  std::vector<int64_t> sizes;
  for (int64_t start = 0; start < size; start += split_size) sizes.push_back(std::min(split_size, size - start));
  if (sizes.empty()) sizes.push_back(0);
  return at::split_with_sizes(self, sizes, dim);
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  TORCH_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t size = self.size(dim);
  const int64_t split_size = (size + chunks - 1) / chunks;
  if (split_size == 0 && size == 0) {  // `chunks` empty pieces (split would give one), as PyTorch
    return at::split_with_sizes(self, std::vector<int64_t>(chunks, 0), dim);
  }
  return at::split(self, split_size, dim);
}

namespace {

// cat's checks, in PyTorch's order, and the shape of its result; also picks
// the result dtype (`out`'s when given, which the inputs must cast to).
std::vector<int64_t> cat_shape(TensorList tensors, int64_t& dim, ScalarType& dtype, const Tensor* out = nullptr) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    TORCH_CHECK(tensors[i].dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
  }
  // 1-D empty tensors are skipped, as in PyTorch (legacy behaviour).
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors) {
    if (!(t.dim() == 1 && t.size(0) == 0)) {
      ref = &t;
      break;
    }
  }
  if (ref) dim = c10::maybe_wrap_dim(dim, ref->dim());
  TORCH_CHECK_VALUE(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  dtype = result_type(tensors);
  if (out) {
    TORCH_CHECK_TYPE(canCast(dtype, out->scalar_type()), "torch.cat(): input types can't be cast to the desired "
                     "output type ", out->scalar_type());
  }
  if (!ref) return {0};
  std::vector<int64_t> shape = ref->sizes().vec();
  shape[dim] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.dim() == 1 && t.size(0) == 0) continue;
    TORCH_CHECK(t.dim() == ref->dim(), "Tensors must have same number of dimensions: got ", ref->dim(), " and ",
                t.dim());
    TORCH_CHECK(t.device() == ref->device(), "Expected all tensors to be on the same device, but found at least two "
                "devices, ", ref->device().str(), " and ", t.device().str(), "!");
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (d == dim) continue;
      TORCH_CHECK(t.size(d) == ref->size(d), "Sizes of tensors must match except in dimension ", dim,
                  ". Expected size ", ref->size(d), " but got size ", t.size(d), " for tensor number ", i,
                  " in the list.");
    }
    shape[dim] += t.size(dim);
  }
  return shape;
}

// cat of contiguous CPU tensors of out's dtype into a contiguous out. Each
// row of the result (one index of the dims before `dim`; the whole result
// for dim 0) is the inputs' rows one after another, so the result is written
// in order, memcpy by memcpy, its bytes split evenly over the threads. Going
// input by input through copy_ instead writes a strided slice of the whole
// result each time (cat of 8 x 256x512 along dim 1: 350 us that way, 317 us
// this way on one thread) and starts a parallel region per input. False
// where it does not apply; the copies then go through copy_ and its checks.
// memcpy, with the common element sizes as fixed-size copies (a move each):
// cat along a last dim of size 1 (dstack, column_stack of vectors) copies one
// element per segment, where a memcpy call per element cost 4x PyTorch.
inline void copy_small(char* dst, const char* src, int64_t n) {
  switch (n) {
    case 1: std::memcpy(dst, src, 1); return;
    case 2: std::memcpy(dst, src, 2); return;
    case 4: std::memcpy(dst, src, 4); return;
    case 8: std::memcpy(dst, src, 8); return;
    case 16: std::memcpy(dst, src, 16); return;
    default: std::memcpy(dst, src, static_cast<size_t>(n));
  }
}

// Rows made of one element from each input (stack along the last dim,
// dstack and column_stack of vectors): an interleave of typed elements.
// Blocks of rows keep the written lines in cache while each input fills
// its column of them; a segment-by-segment copy ran 2x PyTorch here.
template <typename T>
void interleave(char* base, const std::vector<const char*>& part_data, int64_t rows) {
  const int64_t count = static_cast<int64_t>(part_data.size());
  constexpr int64_t kBlock = 1024;
  parallel_for(0, rows, std::max<int64_t>(kGrainSize / count, 1), [&](int64_t lo, int64_t hi) {
    for (int64_t start = lo; start < hi; start += kBlock) {
      const int64_t end = std::min(start + kBlock, hi);
      for (int64_t p = 0; p < count; ++p) {
        const T* src = reinterpret_cast<const T*>(part_data[p]);
        T* dst = reinterpret_cast<T*>(base) + p;
        for (int64_t o = start; o < end; ++o) dst[o * count] = src[o];
      }
    }
  });
}

bool cat_contiguous(const Tensor& out, TensorList tensors, int64_t dim) {
  if (!out.device().is_cpu() || !out.is_contiguous()) return false;
  std::vector<const Tensor*> parts;
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.size(0) == 0) continue;  // skipped by cat_shape too
    if (!t.device().is_cpu() || t.scalar_type() != out.scalar_type() || !t.is_contiguous() ||
        t.storage().is_alias_of(out.storage()))
      return false;
    parts.push_back(&t);
  }
  if (out.numel() == 0) return true;
  const int64_t itemsize = static_cast<int64_t>(c10::elementSize(out.scalar_type()));
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= out.size(d);
  const int64_t row_bytes = out.numel() / outer * itemsize;
  const int64_t inner_bytes = row_bytes / out.size(dim);
  char* base = static_cast<char*>(out.data_ptr());
  // Each input's segment size and data, read once: per row they cost more
  // than a short segment's copy.
  std::vector<int64_t> part_bytes;
  std::vector<const char*> part_data;
  for (const Tensor* t : parts) {
    part_bytes.push_back(t->size(dim) * inner_bytes);
    part_data.push_back(static_cast<const char*>(t->data_ptr()));
  }
  const size_t count = parts.size();
  if (std::all_of(part_bytes.begin(), part_bytes.end(), [&](int64_t b) { return b == itemsize; })) {
    switch (itemsize) {
      case 1: interleave<uint8_t>(base, part_data, outer); return true;
      case 2: interleave<uint16_t>(base, part_data, outer); return true;
      case 4: interleave<uint32_t>(base, part_data, outer); return true;
      case 8: interleave<uint64_t>(base, part_data, outer); return true;
      default: break;
    }
  }
  // Each thread fills the bytes [lo, hi) of the result: the parts of the
  // row segments (row o, input t) that fall in that range.
  parallel_for(0, out.numel() * itemsize, kGrainSize * itemsize, [&](int64_t lo, int64_t hi) {
    for (int64_t o = lo / row_bytes, pos = o * row_bytes; pos < hi; ++o) {
      for (size_t p = 0; p < count; ++p) {
        const int64_t bytes = part_bytes[p];
        if (pos >= lo && pos + bytes <= hi) {
          copy_small(base + pos, part_data[p] + o * bytes, bytes);  // the whole segment: the usual case
        } else {
          const int64_t from = std::max(pos, lo), to = std::min(pos + bytes, hi);
          if (from < to) copy_small(base + from, part_data[p] + o * bytes + (from - pos), to - from);
        }
        pos += bytes;
      }
    }
  });
  return true;
}

}  // namespace

const Tensor& cat_out(const Tensor& out, TensorList tensors, int64_t dim) {
  ScalarType dtype;
  const std::vector<int64_t> shape = cat_shape(tensors, dim, dtype, &out);
  if (!out.sizes().equals(shape)) out.resize_(shape);
  if (cat_contiguous(out, tensors, dim)) return out;
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.size(0) == 0) continue;  // skipped by cat_shape too
    out.narrow(dim, offset, t.size(dim)).copy_(t);
    offset += t.size(dim);
  }
  return out;
}

Tensor cat(TensorList tensors, int64_t dim) {
  ScalarType dtype;
  const std::vector<int64_t> shape = cat_shape(tensors, dim, dtype);
  Tensor out = at::empty(shape, dtype, tensors[0].device());
  at::cat_out(out, tensors, dim);
  return out;
}

Tensor stack(TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  dim = c10::maybe_wrap_dim(dim, tensors[0].dim() + 1);  // the dim first, as PyTorch checks
  for (size_t i = 1; i < tensors.size(); ++i) {
    TORCH_CHECK(tensors[i].sizes().equals(tensors[0].sizes()), "stack expects each tensor to be equal size, but got ",
                tensors[0].sizes(), " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
  }
  std::vector<Tensor> expanded;
  for (const Tensor& t : tensors) expanded.push_back(t.unsqueeze(dim));
  return at::cat(expanded, dim);
}

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

// One line of the last dim: n elements of `bytes` each, read with a stride
// (negative where that dim is flipped), written contiguously.
template <typename T>
void copy_line(const char* src, int64_t stride, int64_t n, char* dst) {
  const T* s = reinterpret_cast<const T*>(src);
  T* d = reinterpret_cast<T*>(dst);
  if (stride == 1) {
    std::memcpy(d, s, n * sizeof(T));
  } else if (stride == -1) {
    // The flipped last dim: one reversed run, 16 bytes at a time where the
    // elements are 4 or 8 bytes (the compiler's loop, like std::reverse_copy,
    // went an element at a time: 3x slower than PyTorch's flip).
    int64_t i = 0;
#if defined(__SSE2__)
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      constexpr int64_t lanes = 16 / sizeof(T);
      constexpr int order = sizeof(T) == 4 ? 0x1B : 0x4E;  // lanes 3,2,1,0 or the two halves swapped
      for (; i + lanes <= n; i += lanes) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s - i - (lanes - 1)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm_shuffle_epi32(v, order));
      }
    }
#endif
    for (; i < n; ++i) d[i] = s[-i];
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = s[i * stride];
  }
}

// Lines [begin, end) of a flip: line `line` goes to out + line * n elements,
// read from the source offset the odometer over the outer dims gives. Typed,
// so the per-line cost is the copy (3072 lines of 32 floats: the per-line
// element-size switch cost as much as the copies).
template <typename T>
void copy_lines(const char* base, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                int64_t begin, int64_t end, char* out) {
  const int64_t nd = static_cast<int64_t>(sizes.size()), n = sizes[nd - 1], inner = strides[nd - 1];
  std::vector<int64_t> index(std::max<int64_t>(nd - 1, 1), 0);
  int64_t offset = 0;
  for (int64_t d = nd - 2, rest = begin; d >= 0; --d) {
    index[d] = rest % sizes[d];
    rest /= sizes[d];
    offset += index[d] * strides[d];
  }
  for (int64_t line = begin; line < end; ++line) {
    copy_line<T>(base + offset * static_cast<int64_t>(sizeof(T)), inner, n,
                 out + line * n * static_cast<int64_t>(sizeof(T)));
    for (int64_t d = nd - 2; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < sizes[d]) break;
      offset -= sizes[d] * strides[d];
      index[d] = 0;
    }
  }
}

// copy_lines for elements of `itemsize` bytes.
void copy_lines_of_size(int64_t itemsize, const char* base, const std::vector<int64_t>& sizes,
                        const std::vector<int64_t>& strides, int64_t begin, int64_t end, char* out) {
  switch (itemsize) {
    case 1: return copy_lines<uint8_t>(base, sizes, strides, begin, end, out);
    case 2: return copy_lines<uint16_t>(base, sizes, strides, begin, end, out);
    case 4: return copy_lines<uint32_t>(base, sizes, strides, begin, end, out);
    case 8: return copy_lines<uint64_t>(base, sizes, strides, begin, end, out);
    case 16: return copy_lines<Bytes16>(base, sizes, strides, begin, end, out);  // complex128
    default: TORCH_INTERNAL_ASSERT(false, "flip: unexpected element size ", itemsize);
  }
}

// flip on the CPU: the result is written in order, each element read from
// the source walked backwards along the flipped dims, lines split over
// threads. Flipping only is a copy with negated strides: no index tensors.
Tensor flip_cpu(const Tensor& self, const std::vector<bool>& flipped) {
  Tensor result = at::empty(self.sizes(), self.options());
  int64_t nd = self.dim(), itemsize = self.element_size();
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end()), strides(nd);
  const char* base = static_cast<const char*>(self.data_ptr());
  for (int64_t d = 0; d < nd; ++d) {
    strides[d] = flipped[d] ? -self.stride(d) : self.stride(d);
    if (flipped[d]) base += (sizes[d] - 1) * self.stride(d) * itemsize;
  }
  // Size-1 dims add nothing, and adjacent dims that step as one (stride[d]
  // == stride[d + 1] * size[d + 1]: two kept dims of a contiguous source, or
  // two flipped ones) are one longer dim: fliplr of [8, 16, 24, 32] copies
  // 128 runs of 768 floats, not 3072 runs of 32 (1.6x PyTorch's time before).
  {
    std::vector<int64_t> merged_sizes, merged_strides;
    for (int64_t d = 0; d < nd; ++d) {
      if (sizes[d] == 1) continue;
      if (!merged_sizes.empty() && merged_strides.back() == strides[d] * sizes[d]) {
        merged_sizes.back() *= sizes[d];
        merged_strides.back() = strides[d];
      } else {
        merged_sizes.push_back(sizes[d]);
        merged_strides.push_back(strides[d]);
      }
    }
    if (merged_sizes.empty()) merged_sizes = merged_strides = {1};
    sizes = std::move(merged_sizes);
    strides = std::move(merged_strides);
    nd = static_cast<int64_t>(sizes.size());
  }
  // A short, unflipped, contiguous last dim is one wider element: flipping
  // [50000, 2] floats along dim 0 is reversing 50000 8-byte elements, not
  // 50000 lines of 2 (20x faster; boxes and points are such tensors).
  while (nd > 1 && strides[nd - 1] == 1 && sizes[nd - 1] > 1 && sizes[nd - 1] * itemsize <= 16 &&
         ((sizes[nd - 1] * itemsize) & (sizes[nd - 1] * itemsize - 1)) == 0) {
    const int64_t k = sizes[nd - 1];
    bool divisible = true;
    for (int64_t d = 0; d < nd - 1; ++d) divisible &= strides[d] % k == 0;
    if (!divisible) break;
    for (int64_t d = 0; d < nd - 1; ++d) strides[d] /= k;
    itemsize *= k;
    sizes.pop_back();
    strides.pop_back();
    --nd;
  }
  int64_t lines = 1;
  for (int64_t d = 0; d < nd - 1; ++d) lines *= sizes[d];
  const int64_t n = sizes[nd - 1], inner = strides[nd - 1];
  char* out = static_cast<char*>(result.data_ptr());
  if (lines == 1) {  // one line (a vector): its elements split over the threads
    const std::vector<int64_t> one_stride = {inner};
    at::parallel_for(0, n, 32768, [&](int64_t begin, int64_t end) {
      const std::vector<int64_t> part = {end - begin};
      copy_lines_of_size(itemsize, base + begin * inner * itemsize, part, one_stride, 0, 1, out + begin * itemsize);
    });
    return result;
  }
  at::parallel_for(0, lines, std::max<int64_t>(1, 32768 / n), [&](int64_t begin, int64_t end) {
    copy_lines_of_size(itemsize, base, sizes, strides, begin, end, out);
  });
  return result;
}

}  // namespace

Tensor flip(const Tensor& self, IntArrayRef dims) {
  // Copies, as PyTorch's flip does: tensors here never have negative strides.
  std::vector<bool> mask(std::max<int64_t>(self.dim(), 1), false);
  for (int64_t d : dims) {
    const int64_t w = c10::maybe_wrap_dim(d, self.dim());
    TORCH_CHECK(!mask[w], "dim ", w, " appears multiple times in the list of dims");
    mask[w] = true;
  }
  if (self.numel() == 0) return at::empty_like(self);
  // (flip_cpu allocates its own result: a second, unused buffer of the same
  // size here made every other call's result a fresh mapping, page faults
  // and all, at twice the time.)
  if (self.is_cpu() && self.dim() > 0) return flip_cpu(self, mask);
  // Other devices: the reversed source as an index walk along each flipped dim.
  Tensor result = at::empty_like(self);
  Tensor src = self;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!mask[d]) continue;
    const int64_t n = self.size(d);
    Tensor index = at::arange(n - 1, -1, -1, ScalarType::Long, self.device());
    src = src.index_select(d, index);
  }
  return result.copy_(src);
}

Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  TORCH_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(),
              "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  for (int64_t r : repeats) TORCH_CHECK(r >= 0, "Trying to create tensor with negative dimension ", r, ": ", repeats);
  const int64_t lead = static_cast<int64_t>(repeats.size()) - self.dim();
  // View self as [1, s0, 1, s1, ...], expand to [r0, s0, r1, s1, ...], reshape.
  std::vector<int64_t> padded(lead, 1), interleaved, expanded, result;
  padded.insert(padded.end(), self.sizes().begin(), self.sizes().end());
  for (size_t i = 0; i < repeats.size(); ++i) {
    interleaved.push_back(1);
    interleaved.push_back(padded[i]);
    expanded.push_back(repeats[i]);
    expanded.push_back(padded[i]);
    result.push_back(repeats[i] * padded[i]);
  }
  return self.reshape(interleaved).expand(expanded).contiguous().view(result);
}

}  // namespace at::native
