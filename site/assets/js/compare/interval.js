// A ratio's confidence interval from the two runs' kept per-second samples, as
// generator/_stats.py's summary_interval computes it: Welch's t on the logarithms, degrees of
// freedom by Welch–Satterthwaite. The index carries each step's log summaries [n, mean,
// variance] (run.seconds, by index.seconds_fields) and the rule (index.ratio.interval): the
// t quantiles at df 1..N, the normal one and the decimals.
import { roundRatio } from './ratio.js';

// Between two entries of the table, and from its last entry to the normal quantile (df → ∞),
// t is interpolated linearly in 1 / df, along which it is nearly straight.
export function tQuantile(df, rule) {
  const { t: table, normal } = rule;
  if (df <= 1) return table[0];
  const lower = Math.floor(df);
  if (lower >= table.length) return normal + (table[table.length - 1] - normal) * (table.length / df);
  const share = (1 / lower - 1 / df) / (1 / lower - 1 / (lower + 1));
  return table[lower - 1] + (table[lower] - table[lower - 1]) * share;
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
