"""The arena's statistics: Student's t intervals, percentiles and the cumulative
difference of two bots over the deals (standard library only)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist, quantiles

__all__ = ["cumulative_difference", "mean_ci95", "percentile", "t_quantile"]

_T975 = {3: 3.182446305284263, 4: 2.7764451051977987}


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile: exact for 1 and 2 degrees of freedom (and 3, 4
    at ``p = 0.975``), otherwise Hill's Cornish–Fisher expansion (error below
    5e-4 from 5 degrees on)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    if p == 0.975 and df in _T975:
        return _T975[df]
    z = NormalDist().inv_cdf(p)
    v = float(df)
    z3, z5, z7, z9 = z**3, z**5, z**7, z**9
    return (
        z
        + (z3 + z) / (4 * v)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * v**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v**3)
        + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v**4)
    )


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% Student t interval
    (``n >= 2`` values, treated as independent observations)."""
    n = len(values)
    if n < 2:
        raise ValueError("a confidence interval needs at least 2 values")
    mean = math.fsum(values) / n
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: int) -> float:
    """The ``q``-th percentile (an integer 0–100) by linear interpolation
    between the closest ranks (``statistics.quantiles``, inclusive method);
    0.0 if there are no values.

    >>> percentile([3.0, 1.0, 2.0, 4.0], 50), percentile([1.0, 2.0], 95)
    (2.5, 1.95)
    """
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {q}")
    if not values:
        return 0.0
    if q == 0:
        return min(values)
    if q == 100 or len(values) == 1:
        return max(values)
    return quantiles(values, n=100, method="inclusive")[q - 1]


def cumulative_difference(
    per_deal_a: Sequence[float], per_deal_b: Sequence[float]
) -> tuple[list[int], list[float], list[float], list[float]]:
    """The cumulative sum of the per-deal differences A − B after each deal,
    with its 95% band (sum ± t·s·√k, s the running standard deviation of the
    differences; the band is the sum itself after the first deal).
    Returns ``(deals, cumulative, low, high)``."""
    xs: list[int] = []
    cum: list[float] = []
    low: list[float] = []
    high: list[float] = []
    total = mean = m2 = 0.0
    for k, (a, b) in enumerate(zip(per_deal_a, per_deal_b, strict=True), 1):
        d = a - b
        total += d
        delta = d - mean
        mean += delta / k
        m2 += delta * (d - mean)
        half = t_quantile(0.975, k - 1) * math.sqrt(m2 / (k - 1) * k) if k > 1 else 0.0
        xs.append(k)
        cum.append(total)
        low.append(total - half)
        high.append(total + half)
    return xs, cum, low, high
