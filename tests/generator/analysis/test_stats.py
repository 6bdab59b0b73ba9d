"""The trust rules (generator/analysis/stats.py) on series with known answers."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from generator.analysis import stats as _stats


def noisy(level: float, seconds: int, spread: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [level * (1 + rng.uniform(-spread, spread)) for _ in range(seconds)]


def test_trim_defaults_and_override():
    assert _stats.trim_seconds(300) == 30 and _stats.trim_seconds(600) == 30
    assert _stats.trim_seconds(60) == 6 and _stats.trim_seconds(3) == 1
    assert _stats.trim_seconds(60, override=0) == 0
    assert _stats.kept([1, 2, 3, 4, 5, 6], 2) == [3, 4, 5, 6]
    assert _stats.kept([1, 2, 3], 2) == [1, 2, 3]  # too short to trim


def test_flat_series_is_steady_and_a_ramp_is_not():
    flat = _stats.steady_state(noisy(1000, 60, 0.05, seed=1))
    assert flat["steady"] is True and abs(flat["drift"]) < 0.05 and flat["cv"] < 0.05
    ramp = _stats.steady_state([100 + 2 * second for second in range(60)])
    assert ramp["steady"] is False and ramp["drift"] > 0.5 and ramp["slope_p"] < 0.001
    jumpy = _stats.steady_state(noisy(1000, 60, 0.6, seed=2))
    assert jumpy["steady"] is False and jumpy["cv"] > _stats.CV_LIMIT
    assert _stats.steady_state([5.0, 6.0])["steady"] is None


def test_identical_distributions_are_within_noise():
    base = noisy(1000, 30, 0.15, seed=3)
    other = noisy(1000, 30, 0.15, seed=4)
    ratio = statistics.fmean(other) / statistics.fmean(base)
    interval = _stats.ratio_interval(base, other, ratio, per_second=True)
    assert interval["low"] < 1 < interval["high"] and interval["method"] == "per-second samples"
    # a ratio outside the band that the noise cannot rule out is not coloured
    assert _stats.verdict(1.06, interval, higher_is_better=True) == "noise"


def test_a_twenty_percent_shift_with_low_noise_is_coloured():
    base = [1000.0, 1010.0, 990.0]
    other = [800.0, 805.0, 795.0]
    interval = _stats.ratio_interval(base, other, 0.8, per_second=False)
    assert interval["high"] < 0.85 and interval["method"] == "repeats"
    assert interval["low"] == pytest.approx(0.77, abs=0.02)
    assert _stats.verdict(0.8, interval, higher_is_better=True) == "worse"
    assert _stats.verdict(0.8, interval, higher_is_better=False) == "better"
    assert _stats.verdict(1.03, interval, higher_is_better=True) == "same"


def test_two_repeats_that_disagree_make_wide_intervals():
    interval = _stats.ratio_interval([1000.0, 1300.0], [900.0, 1200.0], 0.91, per_second=False)
    assert interval["low"] < 0.5 and interval["high"] > 1.5
    assert _stats.ratio_interval([1000.0], [900.0, 950.0], 0.92, per_second=False) is None
    exact = _stats.ratio_interval([100.0, 100.0], [50.0, 50.0], 0.5, per_second=False)
    assert exact["low"] == exact["high"] == 0.5


def test_the_interval_holds_the_ratio_it_qualifies():
    # A series with a dip: its geometric mean sits well below its arithmetic mean, which is
    # what a step's total rate is; the interval is centred on the ratio the page shows.
    base = [1000.0] * 40
    other = [1000.0] * 36 + [10.0] * 4
    shown = statistics.fmean(other) / statistics.fmean(base)  # 0.901
    interval = _stats.ratio_interval(base, other, shown, per_second=True)
    assert interval["low"] < shown < interval["high"]
    assert interval["low"] * interval["high"] == pytest.approx(shown**2, rel=1e-3)


def ar1(mean: float, phi: float, seconds: int, rng: random.Random) -> list[float]:
    """A stationary AR(1) series around mean: each second keeps phi of the last one's deviation,
    plus fresh noise (5 % of the mean: wide enough that rounding the interval to
    INTERVAL_DECIMALS does not widen it)."""
    deviation = rng.gauss(0, 1) / math.sqrt(1 - phi**2)
    series = []
    for _ in range(seconds):
        series.append(mean * (1 + 0.05 * deviation))
        deviation = phi * deviation + rng.gauss(0, 1)
    return series


def _coverage(phi: float, seconds: int, trials: int, per_second: bool) -> float:
    """Share of seeded A/A trials (two independent AR(1) series of the same mean) whose 95 %
    ratio interval holds 1; per_second=False is the naive interval, as if the seconds were
    independent (log_summary is the rule for independent repeats)."""
    held = 0
    for seed in range(trials):
        rng = random.Random(seed)
        base, other = ar1(1000, phi, seconds, rng), ar1(1000, phi, seconds, rng)
        ratio = statistics.fmean(other) / statistics.fmean(base)
        interval = _stats.ratio_interval(base, other, ratio, per_second=per_second)
        held += interval["low"] <= 1 <= interval["high"]
    return held / trials


@pytest.mark.parametrize(("phi", "seconds"), [(0.5, 60), (0.7, 120), (0.0, 30)])
def test_the_per_second_interval_covers_the_mean_of_a_correlated_series(phi, seconds):
    covered = _coverage(phi, seconds, trials=400, per_second=True)
    assert 0.88 <= covered <= 0.99
    if phi:  # the i.i.d. interval is too narrow on the same series
        assert _coverage(phi, seconds, trials=400, per_second=False) < 0.85


def test_the_effective_sample_size_counts_independent_seconds():
    rng = random.Random(7)
    independent = _stats.series_summary([1000 + rng.gauss(0, 10) for _ in range(200)])
    assert 150 <= independent[0] <= 200  # about one per second, never more than n
    correlated = _stats.series_summary(ar1(1000, 0.8, 200, random.Random(8)))
    # tau = (1 + phi) / (1 - phi) = 9 for AR(1): about 22 effective samples of 200
    assert 10 <= correlated[0] <= 40
    alternating = _stats.series_summary([1000.0, 1100.0] * 20)
    assert alternating[0] == 40  # anti-correlated: capped at the seconds it has
    assert _stats.series_summary([1000.0] * 40) == [40, 0.0]  # flat: exact


def test_a_series_too_short_has_no_interval_and_a_trend_few_samples():
    short = noisy(1000, _stats.MIN_SERIES_SECONDS - 1, 0.1, seed=5)
    assert _stats.series_summary(short) is None
    assert _stats.ratio_interval(short, short, 1.0, per_second=True) is None
    # no interval: beyond the band it reads "within noise", never coloured
    assert _stats.verdict(0.41, None, higher_is_better=True) == "noise"
    ramp = [100.0 + second for second in range(40)]  # one trend: its seconds say little
    assert _stats.series_summary(ramp)[0] < 5


def test_client_load_against_the_cpus_it_may_use():
    assert _stats.client_load([95.0, 97.0], cpus=1)["saturated"] is True
    assert _stats.client_load([95.0, 97.0], cpus=2) == {
        "cpu_pct": 96.0,
        "cpus": 2,
        "saturated": False,
    }
    assert _stats.client_load([], cpus=2) is None


@pytest.mark.parametrize("df", [1, 2.5, 7, 30, 1e6])
def test_the_distribution_functions_are_scipy_stats_values(df):
    """stats.py calls scipy.special directly (scipy.stats is slow to import and to call); the
    values must stay scipy.stats' own, bit for bit."""
    from scipy import stats as scipy_stats

    for t_value in (0.1, -1.5, 3.0, 10.0):
        assert _stats._two_sided_p(t_value, df) == float(2 * scipy_stats.t.sf(abs(t_value), df))
    assert _stats.t_quantile(df) == float(scipy_stats.t.ppf(0.5 + _stats.CONFIDENCE / 2, df))
    assert _stats.t_table()[0] == round(
        float(scipy_stats.norm.ppf(0.5 + _stats.CONFIDENCE / 2)), _stats.T_DECIMALS
    )
