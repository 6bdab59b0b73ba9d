"""The rules that decide whether a number, or a difference between two, can be trusted.

Every page and table takes these from here; nothing else restates a threshold.

Warm-up. sysbench 1.0 has no --warmup-time, so the first seconds of each step (connections
opening, caches and the adaptive hash index filling, a checkpoint of the step before) are cut
from its per-second series: by default the first 10 % of the step, at least 1 s and at most
30 s (TRIM_FRACTION, TRIM_MIN_S, TRIM_MAX_S); a campaign's `[sweep] trim_seconds` replaces that.
A step with fewer than MIN_KEPT seconds left keeps them all and says so.

Steady state. Over the kept window: a least-squares line through the per-second values; the
step is unstable when that line moves by more than DRIFT_LIMIT of the mean across the window
and the slope is significant (p < ALPHA), or when the coefficient of variation exceeds
CV_LIMIT. Either way the numbers behind the verdict are kept.

Client. A step is client-bound when the client processes (sysbench, the Insert Benchmark's
workers) used at least CLIENT_SATURATION of the CPUs they could run on over the kept window:
the number then measures the client as much as the server.

Differences. A ratio (other ÷ base, of medians) carries a 95 % confidence interval of the ratio
of means computed on logarithms with Welch's t: from the repeats' means when both sides have at
least two repeats (independent runs: the plain variance of their logarithms), otherwise from the
per-second samples of the kept windows. Consecutive seconds are correlated (a checkpoint or a
purge slows several seconds in a row), so there n counts effective samples, not seconds:
n_eff = n / tau with tau = 1 + 2 * sum of the series' autocorrelations, summed by Geyer's
initial positive sequence (pairs of consecutive lags while their sum stays positive) and capped
at n, so an alternating series never claims more than its seconds. On A/A pairs of AR(1)
series (lag-one correlation 0.6; tests/generator/analysis/test_stats.py) this interval holds 1 in
about 91 % of trials at 30 seconds a side and 95 % at 120, where the i.i.d. interval holds it in
about 67 % at any length; at a correlation of 0.8, 85 % and 93 %. Shorter than MIN_SERIES_SECONDS, the
correlations cannot be estimated honestly: no interval, so no colour. Neither interval measures
the noise between runs (another start, another datadir copy): only repeats measure that.
A difference is coloured only when it is beyond the ±BAND threshold and the interval excludes 1;
beyond the band but inside the noise (or without an interval) it reads "within noise".
"""

from __future__ import annotations

import math
import statistics
from typing import Any

import numpy as np
from scipy import special

TRIM_FRACTION = 0.10
TRIM_MIN_S = 1
TRIM_MAX_S = 30
MIN_KEPT = 3
DRIFT_LIMIT = 0.10
CV_LIMIT = 0.20
ALPHA = 0.05
BAND = 0.05
CONFIDENCE = 0.95
INTERVAL_DECIMALS = 3  # pages print 2; the third keeps the verdict off the printed rounding
# The compare index carries a log_summary of every step, so they are short: a variance to 3
# significant digits moves an interval's half-width by at most 0.25 %, far inside the
# interval's own uncertainty. The generator computes from the same rounded summaries, so the
# page and the generator agree.
LOG_DIGITS = 3
# Fewer kept seconds than this and a series' autocorrelation is too uncertain for an interval.
MIN_SERIES_SECONDS = 30
T_TABLE_STEPS = 200  # linear interpolation in t_table is then within 0.002 % of t for df >= 1
T_DECIMALS = 6
CLIENT_SATURATION = 0.90
TRIM_RULE = (
    f"the first {TRIM_FRACTION:.0%} of each step, at least {TRIM_MIN_S} s and at most"
    f" {TRIM_MAX_S} s"
)


def trim_seconds(duration_s: float, override: int | None = None) -> int:
    """Seconds to cut from the start of a step of duration_s."""
    if override is not None:
        return override
    return int(min(TRIM_MAX_S, max(TRIM_MIN_S, round(duration_s * TRIM_FRACTION))))


def kept(values: list[float], trim: int) -> list[float]:
    """The per-second values after the warm-up; all of them when too few would be left."""
    rest = values[trim:]
    return rest if len(rest) >= MIN_KEPT else list(values)


def steady_state(values: list[float]) -> dict[str, Any]:
    """The verdict on one step's kept window and the numbers behind it (slope_p only when the
    drift is large enough for its significance to matter)."""
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    if n < MIN_KEPT or mean <= 0:
        return {"steady": None, "seconds": n, "drift": None, "cv": None, "slope_p": None}
    # least squares of value on second: plain sums, this runs for every step of every run
    x_mean = (n - 1) / 2
    sxx = n * (n * n - 1) / 12
    sxy = math.fsum((x - x_mean) * (v - mean) for x, v in enumerate(values))
    syy = math.fsum((v - mean) ** 2 for v in values)
    slope = sxy / sxx
    drift = slope * (n - 1) / mean
    cv = math.sqrt(syy / (n - 1)) / mean
    slope_p = None
    if abs(drift) > DRIFT_LIMIT:
        residual = max(syy - slope * sxy, 0.0) / (n - 2)
        slope_p = 0.0 if residual == 0 else _two_sided_p(slope / math.sqrt(residual / sxx), n - 2)
    trending = slope_p is not None and slope_p < ALPHA
    return {
        "steady": not trending and cv <= CV_LIMIT,
        "seconds": n,
        "drift": round(drift, 4),
        "cv": round(cv, 4),
        "slope_p": None if slope_p is None else round(slope_p, 4),
    }


def _two_sided_p(t_value: float, df: float) -> float:
    # scipy.stats.t.sf is this function behind a generic layer ~100x slower per call (and
    # scipy.stats costs about half a second to import): same values, bit for bit.
    return float(2 * special.stdtr(df, -abs(t_value)))


def log_summary(values: list[float]) -> list[float] | None:
    """[n, variance] of the logarithms of the positive values, for independent samples (the
    repeats of a cell): all an interval needs of one side's noise, the variance rounded to
    LOG_DIGITS significant digits so that the compare page, which gets these in its index,
    computes the same interval as the generator. None when fewer than two values are positive."""
    logs = _logs(values)
    if len(logs) < 2:
        return None
    return [len(logs), _significant(_variance(logs))]


def series_summary(values: list[float]) -> list[float] | None:
    """log_summary of a per-second series, its n the effective sample size n / tau (see the
    module docstring), rounded like the variance. None when fewer than MIN_SERIES_SECONDS
    values are positive, or when the series is so correlated that fewer than two effective
    samples remain."""
    logs = _logs(values)
    if len(logs) < MIN_SERIES_SECONDS:
        return None
    if min(logs) == max(logs):  # flat: exact, and its rounding residue has no correlations
        return [len(logs), 0.0]
    variance = _variance(logs)
    effective = len(logs) / _correlation_time(logs)
    if effective < 2:
        return None
    return [_significant(effective), _significant(variance)]


def _logs(values: list[float]) -> list[float]:
    return [math.log(v) for v in values if v > 0]


def _variance(values: list[float]) -> float:
    # statistics.variance computes in exact fractions: far slower, and this runs per step
    mean = math.fsum(values) / len(values)
    return math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)


def _significant(value: float) -> float:
    return float(f"{value:.{LOG_DIGITS}g}")


def _correlation_time(values: list[float]) -> float:
    """tau = 1 + 2 * sum of autocorrelations by Geyer's initial positive sequence, at least 1.
    Autocovariances through the FFT (zero-padded to twice the length: no wrap-around)."""
    centred = np.asarray(values) - np.mean(values)
    spectrum = np.fft.rfft(centred, 2 * len(centred))
    covariance = np.fft.irfft(spectrum * np.conj(spectrum))[: len(centred)]
    correlation = covariance / covariance[0]
    tau = -1.0
    for lag in range(0, len(correlation) - 1, 2):
        pair = float(correlation[lag] + correlation[lag + 1])
        if pair <= 0:
            break
        tau += 2 * pair
    return max(tau, 1.0)


def t_quantile(df: float) -> float:
    """The two-sided CONFIDENCE quantile of Student's t."""
    return float(special.stdtrit(df, 0.5 + CONFIDENCE / 2))  # scipy.stats.t.ppf


def t_table() -> list[float]:
    """t_quantile at 1 / df = k / T_TABLE_STEPS for k = 0 .. T_TABLE_STEPS (k = 0: the normal
    quantile), for a page that computes intervals itself: t is smooth in 1 / df, so it can
    interpolate linearly between entries for any df >= 1 (Welch's df is at least that)."""
    normal = float(special.ndtri(0.5 + CONFIDENCE / 2))  # scipy.stats.norm.ppf
    quantiles = [t_quantile(T_TABLE_STEPS / k) for k in range(1, T_TABLE_STEPS + 1)]
    return [round(value, T_DECIMALS) for value in (normal, *quantiles)]


def ratio_interval(
    base: list[float], other: list[float], ratio: float, per_second: bool
) -> dict[str, Any] | None:
    """95 % interval around a shown ratio of other to base (their totals, or repeat medians),
    its width from samples of each side: repeat values (log_summary), or a per-second series
    when per_second (series_summary). None when a side has too few samples."""
    summary = series_summary if per_second else log_summary
    return summary_interval(summary(base), summary(other), ratio, per_second)


def summary_interval(
    base: list[float] | None, other: list[float] | None, ratio: float, per_second: bool
) -> dict[str, Any] | None:
    """ratio_interval from the two sides' summaries (None: no interval). Welch's standard
    error of the difference of log means, centred on the ratio the page shows: the samples'
    own (geometric) means can sit elsewhere when a series dips, and an interval that does not
    hold its ratio reads as a contradiction."""
    if base is None or other is None or ratio <= 0:
        return None
    (n_b, var_b), (n_o, var_o) = base, other
    se2_b, se2_o = var_b / n_b, var_o / n_o
    se = math.sqrt(se2_b + se2_o)
    quantile = 0.0  # neither side varies: the ratio is exact
    if se > 0:  # Welch-Satterthwaite degrees of freedom
        quantile = t_quantile((se2_b + se2_o) ** 2 / (se2_b**2 / (n_b - 1) + se2_o**2 / (n_o - 1)))
    return {
        "low": round(ratio * math.exp(-quantile * se), INTERVAL_DECIMALS),
        "high": round(ratio * math.exp(quantile * se), INTERVAL_DECIMALS),
        "method": "per-second samples" if per_second else "repeats",
        "n_base": n_b,
        "n_other": n_o,
    }


def sample_summaries(values: list[float], seconds: list[float]) -> dict[str, list[float] | None]:
    """What an interval can use of one side of a ratio at one thread level: "repeats", the
    log_summary of its repeat values (None with fewer than two), and "seconds", the
    series_summary of its kept per-second samples (pooled over the repeats)."""
    return {
        "repeats": log_summary(values) if len(values) >= 2 else None,
        "seconds": series_summary(seconds),
    }


def pair_interval(
    base: dict[str, list[float] | None], other: dict[str, list[float] | None], ratio: float
) -> dict[str, Any] | None:
    """The interval of a ratio between two sides' sample_summaries: from the repeats when both
    have them, else from the per-second samples when both have enough, else none."""
    if base["repeats"] and other["repeats"]:
        return summary_interval(base["repeats"], other["repeats"], ratio, per_second=False)
    return summary_interval(base["seconds"], other["seconds"], ratio, per_second=True)


def value_interval(
    summaries: dict[str, list[float] | None], value: float
) -> tuple[float, float] | None:
    """The 95 % interval of one side's figure (sample_summaries: from its repeats when it has
    two or more, else from its per-second samples), centred on the value shown, as
    summary_interval centres a ratio; None when neither gives one."""
    summary = summaries["repeats"] or summaries["seconds"]
    if summary is None or value <= 0:
        return None
    count, variance = summary
    half = t_quantile(count - 1) * math.sqrt(variance / count) if variance > 0 else 0.0
    return round(value * math.exp(-half), 6), round(value * math.exp(half), 6)


def verdict(ratio: float | None, interval: dict[str, Any] | None, higher_is_better: bool) -> str:
    """'better' / 'worse' (beyond the band and the noise), 'noise' (beyond the band, but the
    interval holds 1 or could not be computed), or 'same' (inside the band)."""
    if ratio is None or 1 - BAND <= ratio <= 1 + BAND:
        return "same"
    if interval is None or interval["low"] <= 1 <= interval["high"]:
        return "noise"
    return "better" if (ratio > 1) == higher_is_better else "worse"


def client_load(client_cpu_pct: list[float], cpus: int) -> dict[str, Any] | None:
    """Mean client CPU (% of one CPU) over the kept samples against the cpus it may use."""
    if not client_cpu_pct or cpus < 1:
        return None
    mean = statistics.fmean(client_cpu_pct)
    return {
        "cpu_pct": round(mean, 1),
        "cpus": cpus,
        "saturated": mean >= CLIENT_SATURATION * 100 * cpus,
    }
