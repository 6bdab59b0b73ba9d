// A ratio's confidence interval from the two runs' kept per-second samples, as
// generator/_stats.py's summary_interval computes it: Welch's t on the logarithms, degrees of
// freedom by Welch–Satterthwaite. The index carries each step's log summaries [n, mean,
// variance] (run.seconds, by index.seconds_fields) and the rule (index.ratio.interval): the
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

// {low, high} of other ÷ base, or null when a side has no summary.
export function summaryInterval(base, other, rule) {
  if (!base || !other) return null;
  const [nBase, meanBase, varBase] = base;
  const [nOther, meanOther, varOther] = other;
  const se2Base = varBase / nBase;
  const se2Other = varOther / nOther;
  const se = Math.sqrt(se2Base + se2Other);
  const diff = meanOther - meanBase;
  let quantile = 0; // neither side varies: the difference is exact
  if (se > 0) {
    const df = (se2Base + se2Other) ** 2 / (se2Base ** 2 / (nBase - 1) + se2Other ** 2 / (nOther - 1));
    quantile = tQuantile(df, rule);
  }
  return {
    low: roundRatio(Math.exp(diff - quantile * se), rule.decimals),
    high: roundRatio(Math.exp(diff + quantile * se), rule.decimals),
  };
}
