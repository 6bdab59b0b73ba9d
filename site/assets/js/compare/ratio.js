// A value divided by the base's at the same threads, judged by the rule the generator uses for
// campaign pages (generator/analysis/stats.py's verdict; the index carries the band as noise, the
// decimals and the markers), so a cell here reads exactly as the same cell there.

// Python's round(x, decimals): correctly rounded, exact ties to even. toFixed is correctly
// rounded too but sends ties up; a tie needs x * 2^(decimals+1) to be an integer (exact
// binary scaling), which is how it is recognised.
export function roundRatio(x, decimals) {
  const halves = x * 2 ** (decimals + 1);
  if (Number.isInteger(halves) && (halves * 5 ** decimals) % 2 === 1) {
    const lower = (halves * 5 ** decimals - 1) / 2;
    return (lower % 2 === 0 ? lower : lower + 1) / 10 ** decimals;
  }
  return Number(x.toFixed(decimals));
}

// 'better' / 'worse' beyond the band with an interval that excludes 1; 'noise' beyond the band
// otherwise; 'same' inside it.
export function verdict(ratio, interval, higherIsBetter, rule) {
  if (ratio === null || (ratio >= 1 - rule.noise && ratio <= 1 + rule.noise)) return 'same';
  if (!interval || (interval.low <= 1 && interval.high >= 1)) return 'noise';
  return ratio > 1 === higherIsBetter ? 'better' : 'worse';
}

// {state: 'ratio' | 'missing' | 'n/a', ratio, interval, verdict, marker}; interval: the ratio's
// (summaryInterval), null for the base's own cell or when a side has no per-second samples.
export function ratioCell(value, baseValue, higherIsBetter, rule, interval) {
  let ratio = null;
  if (value != null && baseValue) ratio = roundRatio(value / baseValue, rule.decimals);
  const judged = verdict(ratio, interval, higherIsBetter, rule);
  let state = 'ratio';
  if (value == null) state = 'missing';
  else if (ratio === null) state = 'n/a';
  return { state, ratio, interval: ratio === null ? null : interval, verdict: judged, marker: rule.markers[judged] };
}
