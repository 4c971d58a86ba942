"""Derive the constants of aten/src/ATen/native/cpu/VecMathLanes64.h that are
not Taylor or Bernoulli coefficients, so that a reader can check them:

    pip install mpmath && python tools/vec_math_constants.py

prints pi/2 and ln 2 split into parts whose products with small integers are
exact, and the least-squares polynomial of lgamma(2 + t) / t on [-3/4, 1/2]
(200 Chebyshev nodes, degree 22, highest coefficient first) with its largest
relative error once rounded to doubles.
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


def lgamma_near_two(degree=22, low=-0.75, high=0.5, nodes=200):
    def g(t):
        return 1 - mp.euler if t == 0 else mp.loggamma(2 + t) / t

    middle, half = (mp.mpf(low) + high) / 2, (mp.mpf(high) - low) / 2
    ts = [middle + half * mp.cos(mp.pi * (k + mp.mpf(0.5)) / nodes) for k in range(nodes)]
    a = mp.matrix([[t**j for j in range(degree + 1)] for t in ts])
    b = mp.matrix([g(t) for t in ts])
    c = mp.lu_solve(a.T * a, a.T * b)
    coefficients = [float(c[j]) for j in range(degree + 1)]
    worst = 0
    for k in range(2001):
        t = mp.mpf(low) + (mp.mpf(high) - low) * k / 2000
        p = mp.mpf(0)
        for cj in reversed(coefficients):
            p = p * t + cj
        worst = max(worst, abs(p - g(t)) / abs(g(t)))
    return coefficients[::-1], float(worst)


if __name__ == "__main__":
    print("pi/2 (kHalfPi1..3):", split(mp.pi / 2, 33, 3))
    print("ln 2 (kLn2Hi, kLn2Lo):", split(mp.log(2), 32, 2))
    coefficients, worst = lgamma_near_two()
    print("lgamma(2 + t) / t, highest first:", ", ".join(repr(c) for c in coefficients))
    print("largest relative error:", worst)
