// A value divided by the base's at the same threads, judged by the band the generator uses for
// campaign pages (generator/_compare.py; the index carries noise, decimals and markers), so a
// cell here reads exactly as the same cell there.

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

// {state: 'ratio' | 'missing' | 'n/a', ratio, verdict: 'better' | 'worse' | 'same', marker}
export function ratioCell(value, baseValue, higherIsBetter, rule) {
  let ratio = null;
  if (value != null && baseValue) ratio = roundRatio(value / baseValue, rule.decimals);
  let verdict = 'same';
  if (ratio !== null && (ratio < 1 - rule.noise || ratio > 1 + rule.noise)) {
    verdict = ratio > 1 === higherIsBetter ? 'better' : 'worse';
  }
  let state = 'ratio';
  if (value == null) state = 'missing';
  else if (ratio === null) state = 'n/a';
  return { state, ratio, verdict, marker: rule.markers[verdict] };
}
