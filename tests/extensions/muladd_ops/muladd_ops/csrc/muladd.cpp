#include <Python.h>
#include <ATen/Operators.h>
#include <torch/all.h>
#include <torch/library.h>

// An empty module named _C: importing it loads this library, which runs the
// TORCH_LIBRARY blocks below. It uses only the stable ABI (Py_LIMITED_API).
extern "C" {
PyObject* PyInit__C(void) {
  static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_C", NULL, -1, NULL};
  return PyModule_Create(&module_def);
}
}

namespace muladd_ops {

at::Tensor muladd_cpu(const at::Tensor& a, const at::Tensor& b, double c) {
  TORCH_CHECK(a.sizes() == b.sizes(), "muladd: a and b differ in shape");
  TORCH_CHECK(a.dtype() == at::kFloat, "muladd: a must be float32");
  TORCH_CHECK(b.dtype() == at::kFloat, "muladd: b must be float32");
  TORCH_INTERNAL_ASSERT(a.device().type() == at::DeviceType::CPU);
  TORCH_INTERNAL_ASSERT(b.device().type() == at::DeviceType::CPU);
  at::Tensor a_contig = a.contiguous();
  at::Tensor b_contig = b.contiguous();
  at::Tensor result = torch::empty(a_contig.sizes(), a_contig.options());
  const float* a_ptr = a_contig.data_ptr<float>();
  const float* b_ptr = b_contig.data_ptr<float>();
  float* result_ptr = result.data_ptr<float>();
  for (int64_t i = 0; i < result.numel(); i++) result_ptr[i] = a_ptr[i] * b_ptr[i] + static_cast<float>(c);
  return result;
}

at::Tensor mul_cpu(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.sizes() == b.sizes(), "mul: a and b differ in shape");
  TORCH_CHECK(a.dtype() == at::kFloat && b.dtype() == at::kFloat, "mul: float32 only");
  // Through the operator API: at::_ops::<op>::call is what at::mul calls.
  return at::_ops::mul_Tensor::call(a, b);
}

// Mutates `out`, as its schema declares (Tensor(a!) out).
void add_into_cpu(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  TORCH_CHECK(a.sizes() == b.sizes() && b.sizes() == out.sizes(), "add_into: shapes differ");
  TORCH_CHECK(a.dtype() == at::kFloat && b.dtype() == at::kFloat && out.dtype() == at::kFloat,
              "add_into: float32 only");
  TORCH_CHECK(out.is_contiguous(), "add_into: out must be contiguous");
  at::Tensor a_contig = a.contiguous();
  at::Tensor b_contig = b.contiguous();
  const float* a_ptr = a_contig.data_ptr<float>();
  const float* b_ptr = b_contig.data_ptr<float>();
  float* out_ptr = out.data_ptr<float>();
  for (int64_t i = 0; i < out.numel(); i++) out_ptr[i] = a_ptr[i] + b_ptr[i];
}

TORCH_LIBRARY(muladd_ops, m) {
  m.def("muladd(Tensor a, Tensor b, float c) -> Tensor");
  m.def("mul(Tensor a, Tensor b) -> Tensor");
  m.def("add_into(Tensor a, Tensor b, Tensor(a!) out) -> ()");
}

TORCH_LIBRARY_IMPL(muladd_ops, CPU, m) {
  m.impl("muladd", &muladd_cpu);
  m.impl("mul", &mul_cpu);
  m.impl("add_into", &add_into_cpu);
}

}  // namespace muladd_ops
