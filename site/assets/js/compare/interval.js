// A ratio's confidence interval, as generator/analysis/stats.py's pair_interval and
// summary_interval compute it: from the two sides' repeats when both have them, else from
// their kept per-second samples; Welch's standard error of the difference of log means,
// degrees of freedom by Welch–Satterthwaite, centred on the ratio shown. The index carries each
// side's summaries [n, variance] (entry.repeats, entry.seconds, by index.seconds_fields; a
// per-second n is already the effective sample size) and the rule (index.ratio.interval): the
// confidence, a table of t quantiles and the decimals.
import { roundRatio } from './ratio.js';

// rule.t[k] is t at 1 / df = k / (rule.t.length - 1), the normal quantile first; t is smooth in
// 1 / df, so a straight line between entries is within 0.002 % of it for any df >= 1, which
// Welch's df always is.
export function tQuantile(df, rule) {
  const steps = rule.t.length - 1;
  const position = steps / df;
  const k = Math.min(Math.floor(position), steps - 1);
  return rule.t[k] + (rule.t[k + 1] - rule.t[k]) * (position - k);
}

// {low, high, method} around ratio (other ÷ base, unrounded) from two sides' summaries
// ({repeats, seconds}, see selection.js summariesByThreads); null when no pair of them exists.
export function pairInterval(base, other, ratio, rule) {
  if (base.repeats && other.repeats) return summaryInterval(base.repeats, other.repeats, ratio, rule, 'repeats');
  return summaryInterval(base.seconds, other.seconds, ratio, rule, 'per-second samples');
}

// {low, high, method} around ratio, or null when a side has no summary.
function summaryInterval(base, other, ratio, rule, method) {
  if (!base || !other || !(ratio > 0)) return null;
  const [nBase, varBase] = base;
  const [nOther, varOther] = other;
  const se2Base = varBase / nBase;
  const se2Other = varOther / nOther;
  const se = Math.sqrt(se2Base + se2Other);
  let quantile = 0; // neither side varies: the ratio is exact
  if (se > 0) {
    const df = (se2Base + se2Other) ** 2 / (se2Base ** 2 / (nBase - 1) + se2Other ** 2 / (nOther - 1));
    quantile = tQuantile(df, rule);
  }
  return {
    low: roundRatio(ratio * Math.exp(-quantile * se), rule.decimals),
    high: roundRatio(ratio * Math.exp(quantile * se), rule.decimals),
    method,
  };
}
