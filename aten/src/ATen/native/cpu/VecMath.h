#pragma once
// Vectorised float32 math for the hot kernels. Each function is a plain loop
// the compiler vectorises, compiled into each capability's copy of the
// kernels (cmake/CpuCapabilities.cmake); kernel files call their own copy's.
// Code outside native/cpu/, compiled once, goes through the stubs at the end.
// exp is a Cephes-style range reduction and polynomial, within 2 ulp of
// std::exp, with exact handling of inf, -inf and NaN.
#include <ATen/native/DispatchStub.h>

#include <cstdint>

#ifdef CPU_CAPABILITY
namespace at::native::vec {
inline namespace CPU_CAPABILITY {

// y[i] = exp(x[i])
void exp(const float* x, float* y, int64_t n);
// y[i] = log(x[i]), log1p(x[i]), expm1(x[i]), sin(x[i]), cos(x[i])
// (VecMathElementary.cpp), within 1 ulp (log), 2 (expm1, sin, cos) and 2.5
// (log1p) of the exact value (tests/test_vec_math.py); special values as
// <cmath> gives them.
void log(const float* x, float* y, int64_t n);
void log1p(const float* x, float* y, int64_t n);
void expm1(const float* x, float* y, int64_t n);
void sin(const float* x, float* y, int64_t n);
void cos(const float* x, float* y, int64_t n);
// y[i] = tan(x[i]): sin and cos of one reduction divided, within 4 ulp.
void tan(const float* x, float* y, int64_t n);
// y[i] = log2(x[i]) (2 ulp), exp2(x[i]) (1 ulp), sinh, cosh and atanh of
// x[i] (3 ulp), from the same lanes (VecMathElementary.cpp).
void log2(const float* x, float* y, int64_t n);
void exp2(const float* x, float* y, int64_t n);
void sinh(const float* x, float* y, int64_t n);
void cosh(const float* x, float* y, int64_t n);
void atanh(const float* x, float* y, int64_t n);
// out[i] = pow(x[i], y[i * y_step]) (y_step 0: one exponent for all), within
// 1 ulp in the AVX2 and AVX512 copies (2^(y log2 x) carried in double);
// <cmath>'s pow in the DEFAULT copy and for non-positive, non-finite or
// subnormal bases and non-finite exponents.
void pow(const float* x, const float* y, int64_t y_step, float* out, int64_t n);
// out[i] = op(x[i * x_step], y[i * y_step]), each step 0 (a number) or 1,
// as BinaryFunctors.h defines the op (VecMathBinary.cpp). fmod is exact (the
// quotient's truncation in double), so remainder and floor_divide agree with
// their scalar definitions; logaddexp(2) within 3 ulp. out may alias x or y.
void fmod(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n);
void remainder(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n);
void floor_divide(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n);
void logaddexp(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n);
void logaddexp2(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n);
// float64: y[i] = exp (1 ulp), expm1, exp2, log (1 ulp), log1p, sin, cos,
// asin, acos, atan (2 ulp), atanh (3 ulp), lgamma and digamma of x[i] (VecMathDouble.cpp,
// VecMathLanes64.h; tests/test_vec_math_double.py checks the bounds).
// lgamma and digamma of float32 go through the same double lanes.
void exp(const double* x, double* y, int64_t n);
void expm1(const double* x, double* y, int64_t n);
void exp2(const double* x, double* y, int64_t n);
void log(const double* x, double* y, int64_t n);
void log1p(const double* x, double* y, int64_t n);
void sin(const double* x, double* y, int64_t n);
void cos(const double* x, double* y, int64_t n);
void atanh(const double* x, double* y, int64_t n);
void asin(const double* x, double* y, int64_t n);
void acos(const double* x, double* y, int64_t n);
void atan(const double* x, double* y, int64_t n);
// out[i] = pow(x[i], y[i * y_step]) within 1 ulp in the AVX2 and AVX512
// copies (exp and log carried as pairs), <cmath>'s elsewhere and for
// zero, subnormal and non-finite bases and non-finite exponents.
void pow(const double* x, const double* y, int64_t y_step, double* out, int64_t n);
void lgamma(const double* x, double* y, int64_t n);
void digamma(const double* x, double* y, int64_t n);
void lgamma(const float* x, float* y, int64_t n);
void digamma(const float* x, float* y, int64_t n);
// out[i] = hypot(x[i * x_step], y[i * y_step]) of float32, squared and
// summed in double; infinities and NaN as <cmath>'s. out may alias x or y.
void hypot(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n);
// y[i] = 1 / (1 + exp(-x[i]))
void sigmoid(const float* x, float* y, int64_t n);
// y[i] = tanh(x[i]): Cephes' tanhf (an odd polynomial below 0.625, else
// 1 - 2 / (exp(2|x|) + 1)), within 2 ulp of std::tanh.
void tanh(const float* x, float* y, int64_t n);
// out[i] = atan2(y[i], x[i]): Cephes' atan on |y| / |x| (or its inverse)
// mirrored into the quadrant, within 3 ulp; zeros, infinities and NaN as
// <cmath>'s atan2 gives them. out may alias x or y.
void atan2(const float* y, const float* x, float* out, int64_t n);
// y[i] = atan, asin, acos (3 ulp) and erfinv (4 ulp) of x[i], Cephes'
// and Giles' polynomials (VecMathInverse.cpp); NaN and |x| > 1 from <cmath>.
void atan(const float* x, float* y, int64_t n);
void asin(const float* x, float* y, int64_t n);
void acos(const float* x, float* y, int64_t n);
void erfinv(const float* x, float* y, int64_t n);
// y[i] = erf(x[i]): a Taylor series below 0.9, Abramowitz and Stegun's
// 7.1.26 above (the approximation PyTorch's vectorised float32 erf uses
// everywhere); within 5 ulp.
void erf(const float* x, float* y, int64_t n);
// y[i] = erfc(x[i]): 1 - erf by the series below 0.5, t exp(-x^2) exp(g(t))
// above (VecMath.cpp), within 7 ulp; 0 (2) past 10.1, NaN stays NaN.
void erfc(const float* x, float* y, int64_t n);
// y[i] = gelu(x[i]) = x[i] / 2 (1 + erf(x[i] / sqrt 2)), erf by 7.1.26
// alone, as PyTorch's gelu kernel computes it.
void gelu(const float* x, float* y, int64_t n);
// y[i] = g[i] * gelu'(x[i]).
void gelu_backward(const float* g, const float* x, float* y, int64_t n);
// gelu's tanh form, x / 2 (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), and
// g times its derivative, with tanh as above.
void gelu_tanh(const float* x, float* y, int64_t n);
void gelu_tanh_backward(const float* g, const float* x, float* y, int64_t n);
// softmax (or log_softmax) of each of `rows` contiguous rows of n floats,
// shifted by the row's max as PyTorch does: a +inf or NaN makes the row NaN,
// and an all -inf row (no shift) gives 0/0, NaN too. log_softmax is
// (x - max) - log(sum), in that order: x - (max + log(sum)) loses log(sum)
// against a large max (log_softmax([1e8, 1e8]) is -log 2).
void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log);
// The sum of exp(x[i] - shift), exp as softmax's (float lanes, added up in
// double): logsumexp's sum after its shift by the max.
double sum_exp_shifted(const float* x, float shift, int64_t n);
// The largest (smallest) x[i]; NaN if any x[i] is NaN.
float max(const float* x, int64_t n);
float min(const float* x, int64_t n);
double max(const double* x, int64_t n);
double min(const double* x, int64_t n);
// The sum of x[0..n): 16 float lanes over blocks of 4096 elements whose
// totals add up in double (nearly a double sum's accuracy at a float sum's
// speed). The 16-bit types are given by their bits (float16, bfloat16) and
// widened to float on the way, in the vector registers.
double sum(const float* x, int64_t n);
double sum_float16(const uint16_t* bits, int64_t n);
double sum_bfloat16(const uint16_t* bits, int64_t n);
// acc[j] += x[r * stride + j] over rows r in [0, rows), j in [0, cols): four
// rows at a time, added pairwise before they reach acc, so acc is loaded and
// stored once per four rows (the column sums of a contiguous matrix).
void add_rows(const float* x, int64_t rows, int64_t stride, float* acc, int64_t cols);
// layer_norm's forward over `rows` contiguous rows of n floats: mean[r] (the
// row's sum in float lanes added up in double, over n), rstd[r] = 1 /
// sqrt(var + eps) with var the mean squared deviation from that float mean,
// and each row normalised: y = (x - mean) * rstd * w + b, where w and b may
// be null (absent). The rows after the current one are prefetched: once a
// row sits in L1 its passes are arithmetic.
void layer_norm_rows(const float* x, const float* w, const float* b, float* y, float* mean, float* rstd,
                     int64_t rows, int64_t n, double eps);

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
#endif

namespace at::native {
// vec::sigmoid, vec::tanh and vec::layer_norm_rows for code outside native/cpu/.
using vec_map_fn = void (*)(const float*, float*, int64_t);
using vec_layer_norm_rows_fn = void (*)(const float*, const float*, const float*, float*, float*, float*, int64_t,
                                        int64_t, double);
DECLARE_DISPATCH(vec_map_fn, vec_sigmoid_stub);
DECLARE_DISPATCH(vec_map_fn, vec_tanh_stub);
DECLARE_DISPATCH(vec_layer_norm_rows_fn, vec_layer_norm_rows_stub);
}  // namespace at::native
