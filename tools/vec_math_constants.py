"""Derive the constants of aten/src/ATen/native/cpu/VecMathLanes64.h that are
not Taylor or Bernoulli coefficients, so that a reader can check them:

    pip install mpmath && python tools/vec_math_constants.py

prints pi/2 and ln 2 split into parts whose products with small integers are
exact, pi/4, pi/2 and pi as a double and its remainder, and least-squares
polynomials (200 Chebyshev nodes, highest coefficient first) with their
largest relative error once rounded to doubles:
  - lgamma(2 + t) / t on [-3/4, 1/2], degree 22;
  - P(z) with asin(x) = x + x z P(z), z = x^2 in [0, 1/4], degree 12;
  - Q(z) with atan(x) = x + x z Q(z), z = x^2 in [0, tan(pi/8)^2], degree 10.
"""
import mpmath as mp

mp.mp.prec = 300


def round_to_bits(value, bits):
    """value rounded to `bits` significant bits."""
    mantissa, exponent = mp.frexp(value)
    return mp.ldexp(mp.nint(mp.ldexp(mantissa, bits)), exponent - bits)


def split(value, head_bits, parts):
    """value as a sum of parts, all but the last with head_bits bits."""
    out, rest = [], value
    for _ in range(parts - 1):
        out.append(round_to_bits(rest, head_bits))
        rest -= out[-1]
    out.append(round_to_bits(rest, 53))
    return [float(p) for p in out]


def least_squares(g, low, high, degree, nodes=200):
    """The polynomial closest to g at Chebyshev nodes of [low, high],
    lowest coefficient first, rounded to doubles."""
    middle, half = (mp.mpf(low) + high) / 2, (mp.mpf(high) - low) / 2
    ts = [middle + half * mp.cos(mp.pi * (k + mp.mpf(0.5)) / nodes) for k in range(nodes)]
    a = mp.matrix([[t**j for j in range(degree + 1)] for t in ts])
    b = mp.matrix([g(t) for t in ts])
    c = mp.lu_solve(a.T * a, a.T * b)
    return [float(c[j]) for j in range(degree + 1)]


def horner(coefficients, t):
    p = mp.mpf(0)
    for c in reversed(coefficients):
        p = p * t + c
    return p


def lgamma_near_two(degree=22, low=-0.75, high=0.5):
    def g(t):
        return 1 - mp.euler if t == 0 else mp.loggamma(2 + t) / t

    coefficients = least_squares(g, low, high, degree)
    worst = 0
    for k in range(2001):
        t = mp.mpf(low) + (mp.mpf(high) - low) * k / 2000
        worst = max(worst, abs(horner(coefficients, t) - g(t)) / abs(g(t)))
    return coefficients[::-1], float(worst)


def odd_tail(f, high, degree):
    """R(z) with f(x) = x + x z R(z) for z = x^2 in [0, high^2] (f is asin or
    atan: odd, f(x) = x + O(x^3)), and the largest relative error of
    x + x z R(z) against f on (0, high]."""
    def r(z):
        if z == 0:
            return mp.diff(lambda x: f(x), 0, 3) / 6
        s = mp.sqrt(z)
        return (f(s) - s) / (z * s)

    coefficients = least_squares(r, 0, mp.mpf(high) ** 2, degree)
    worst = 0
    for k in range(1, 3001):
        x = mp.mpf(high) * k / 3000
        worst = max(worst, abs(x + x * x * x * horner(coefficients, x * x) - f(x)) / f(x))
    return coefficients[::-1], float(worst)


if __name__ == "__main__":
    print("pi/2 (kHalfPi1..3):", split(mp.pi / 2, 33, 3))
    print("ln 2 (kLn2Hi, kLn2Lo):", split(mp.log(2), 32, 2))
    for name, value in (("pi/4", mp.pi / 4), ("pi/2", mp.pi / 2), ("pi", mp.pi)):
        print(f"{name} (double, remainder):", split(value, 53, 2))
    for name, (coefficients, worst) in (("lgamma(2 + t) / t", lgamma_near_two()),
                                         ("asin's P(z)", odd_tail(mp.asin, mp.mpf(1) / 2, 12)),
                                         ("atan's Q(z)", odd_tail(mp.atan, mp.tan(mp.pi / 8), 10))):
        print(f"{name}, highest first:", ", ".join(repr(c) for c in coefficients))
        print("  largest relative error:", worst)
