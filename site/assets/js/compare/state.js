// The whole view lives in the query string, so a pasted URL restores it:
//   ?campaign=<id>&runs=<id>,<id>&workload=<name>&base=<label>&metric=tps|qps|p95&scale=lin|log
// campaign stands for the runs its page counts; runs adds any others.

export const SCALES = ['lin', 'log'];

export function readState(search, metrics) {
  const query = new URLSearchParams(search);
  const metric = query.get('metric');
  return {
    campaign: query.get('campaign') ?? '',
    runs: (query.get('runs') ?? '').split(',').filter(Boolean),
    workload: query.get('workload') ?? '',
    base: query.get('base') ?? '',
    metric: metric in metrics ? metric : Object.keys(metrics)[0],
    scale: SCALES.includes(query.get('scale')) ? query.get('scale') : SCALES[0],
  };
}

// Run ids are URL-safe, so the list keeps readable commas.
export function queryOf(state) {
  const parts = [];
  if (state.campaign) parts.push(`campaign=${encodeURIComponent(state.campaign)}`);
  if (state.runs.length) parts.push(`runs=${state.runs.map(encodeURIComponent).join(',')}`);
  for (const key of ['workload', 'base', 'metric', 'scale']) {
    if (state[key]) parts.push(`${key}=${encodeURIComponent(state[key])}`);
  }
  return `?${parts.join('&')}`;
}
