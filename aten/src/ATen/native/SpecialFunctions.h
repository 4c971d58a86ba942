#pragma once
// Scalar special functions for the CPU and CUDA kernels: digamma, the
// Hurwitz zeta function (behind polygamma) and the inverse error function.
// Each is computed in double for double and in float for the narrower
// types (M = opmath_t), by series whose truncation is below that type's
// rounding.
#include <c10/macros/Macros.h>

#include <cmath>
#include <limits>

namespace at::native::special {

constexpr double kPi = 3.14159265358979323846;

// psi(x) = d/dx log Gamma(x): the recurrence psi(x) = psi(x + 1) - 1/x up to
// x >= 10, then the asymptotic series log x - 1/(2x) - sum B_2k / (2k x^2k);
// reflection psi(1 - x) - pi / tan(pi x) below 0. psi(0) is -inf with 0's
// sign flipped, as in PyTorch and SciPy; negative integers give NaN.
template <typename M>
C10_HOST_DEVICE M digamma(M x) {
  if (x == M(0)) return std::copysign(std::numeric_limits<M>::infinity(), -x);
  if (x < M(0)) {
    if (x == std::trunc(x)) return std::numeric_limits<M>::quiet_NaN();
    const M frac = x - std::floor(x);
    return digamma(M(1) - x) - M(kPi) / std::tan(M(kPi) * frac);
  }
  M shift = 0;
  while (x < M(10)) {
    shift -= M(1) / x;
    x += M(1);
  }
  const M z = M(1) / (x * x);
  // B_2k / 2k for k = 1..7: 1/12, -1/120, 1/252, -1/240, 1/132, -691/32760, 1/12.
  const M series =
      z * (M(1.0 / 12) +
           z * (M(-1.0 / 120) +
                z * (M(1.0 / 252) + z * (M(-1.0 / 240) + z * (M(1.0 / 132) + z * (M(-691.0 / 32760) + z * M(1.0 / 12)))))));
  return shift + std::log(x) - M(0.5) / x - series;
}

// psi'(x), polygamma(1, x) as PyTorch computes it: the reflection
// pi^2 / sin^2(pi x) - psi'(1 - x) below 1/2, the recurrence
// psi'(x) = psi'(x + 1) + 1/x^2 six times, then the asymptotic series
// 1/x + 1/(2x^2) + 1/(6x^3) - 1/(30x^5) + 1/(42x^7). 0 at +inf, inf at 0.
// As in PyTorch, x's steps round to M (float for float32: the large
// finite values at the negative integers are float's sin(pi x)) and the
// sum accumulates in double.
template <typename M>
C10_HOST_DEVICE double trigamma(M x) {
  double sign = 1, result = 0;
  if (x < M(0.5)) {
    sign = -1;
    const M s = std::sin(M(kPi) * x);
    result -= static_cast<double>(M(kPi) * M(kPi) / (s * s));
    x = M(1) - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += static_cast<double>(M(1) / (x * x));
    x += M(1);
  }
  const double z = static_cast<double>(M(1) / (x * x));
  result += (1.0 + static_cast<double>(M(1) / (M(2) * x)) + z * (1.0 / 6 - z * (1.0 / 30 - z * (1.0 / 42)))) /
            static_cast<double>(x);
  return sign * result;
}

// Hurwitz zeta(s, q) = sum_k (q + k)^-s for s > 1, by Euler-Maclaurin:
// the first N terms, the integral of the rest, and Bernoulli corrections.
// s == 1 is a pole (inf); s < 1 is NaN; q a non-positive integer is inf,
// other negative q NaN (PyTorch's and Cephes's conventions).
template <typename M>
C10_HOST_DEVICE M zeta(M s, M q) {
  const M inf = std::numeric_limits<M>::infinity();
  if (s == M(1)) return inf;
  if (s < M(1)) return std::numeric_limits<M>::quiet_NaN();
  // q = +inf falls through to inf * 0 = NaN and q = -inf counts as a pole (inf), as in PyTorch's zeta.
  if (q <= M(0)) {
    if (q == std::floor(q)) return inf;
    // (q + k)^-s of a negative base is real only for an integer s.
    if (s != std::floor(s)) return std::numeric_limits<M>::quiet_NaN();
  }
  // Cephes's order, which PyTorch's zeta keeps: direct terms while fewer
  // than 10 or q + k <= 9, returning as soon as one is below MACHEP of the
  // sum (for a large s, after a term or two), then the tail.
  const M machep = M(1.11022302462515654042e-16);
  M sum = std::pow(q, -s), a = q, term = M(0);
  for (int i = 0; i < 9 || a <= M(9);) {
    ++i;
    a += M(1);
    term = std::pow(a, -s);
    sum += term;
    if (-machep * sum < term && term < machep * sum) return sum;
  }
  // Tail: a^(1-s)/(s-1) - a^-s/2 (the last term counted half) + sum_j
  // B_2j/(2j)! s(s+1)...(s+2j-2) a^(-s-2j+1).
  const M w = a;
  sum += term * w / (s - M(1));
  sum -= M(0.5) * term;
  // (2j)! / B_2j for j = 1..12.
  constexpr double kFactorialOverBernoulli[12] = {
      12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
      1.8152105401943546773e17, -7.1661652561756670113e18};
  M factor = M(1), k = M(0);  // s(s+1)...(s+2j-2); term becomes a^(-s-2j+1)
  for (int j = 0; j < 12; ++j) {
    factor *= s + k;
    term /= w;
    const M t = factor * term / M(kFactorialOverBernoulli[j]);
    sum += t;
    if (std::fabs(t / sum) < machep) return sum;
    k += M(1);
    factor *= s + k;
    term /= w;
    k += M(1);
  }
  return sum;
}

// erf^-1(y) on [-1, 1], as PyTorch computes it (so both agree in the tails,
// where erf's values crowd near 1): a rational approximation (Pavlis's, of
// MATLAB's erfinv) in the centre and in the tails, then two Newton steps, in
// the type's own arithmetic. Exact +-inf at +-1, NaN outside.
template <typename M>
C10_HOST_DEVICE M erfinv(M y) {
  const M a = std::fabs(y);
  if (!(a <= M(1))) return std::numeric_limits<M>::quiet_NaN();
  if (a == M(1)) return std::copysign(std::numeric_limits<M>::infinity(), y);
  M x;
  if (a <= M(0.7)) {
    const M z = y * y;
    const M num = ((M(-0.140543331) * z + M(0.914624893)) * z + M(-1.645349621)) * z + M(0.886226899);
    const M den = (((M(0.012229801) * z + M(-0.329097515)) * z + M(1.442710462)) * z + M(-2.118377725)) * z + M(1);
    x = y * num / den;
  } else {
    const M z = std::sqrt(-std::log((M(1) - a) / M(2)));
    const M num = ((M(1.641345311) * z + M(3.429567803)) * z + M(-1.624906493)) * z + M(-1.970840454);
    const M den = (M(1.637067800) * z + M(3.543889200)) * z + M(1);
    x = std::copysign(num, y) / den;
  }
  // Two Newton steps on erf(x) = y: to the type's full accuracy.
  const M slope = M(1.1283791670955126);  // 2 / sqrt(pi)
  x = x - (std::erf(x) - y) / (slope * std::exp(-x * x));
  x = x - (std::erf(x) - y) / (slope * std::exp(-x * x));
  return x;
}

}  // namespace at::native::special
