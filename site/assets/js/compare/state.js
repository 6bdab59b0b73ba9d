// The whole view lives in the query string, so a pasted URL restores it:
//   ?campaign=<id>&variants=<variant>,<variant>~<pass>&runs=<id>,<id>&passes=1
//    &workload=<name>&base=<label>&metric=tps|qps|p95&scale=lin|log
// campaign stands for the runs its page counts, or with variants for those of the variants
// named (all their workloads), or of one pass of a variant (variant~pass); runs adds any others
// by id (older links name every run that way, and still work). passes=1 draws each pass on its
// own instead of merging a variant's passes.
import { passToken } from './selection.js';

export const SCALES = ['lin', 'log'];

function list(query, key) {
  return (query.get(key) ?? '').split(',').filter(Boolean);
}

export function readState(search, metrics) {
  const query = new URLSearchParams(search);
  const metric = query.get('metric');
  return {
    campaign: query.get('campaign') ?? '',
    variants: list(query, 'variants'),
    runs: list(query, 'runs'),
    passes: query.get('passes') === '1',
    workload: query.get('workload') ?? '',
    base: query.get('base') ?? '',
    metric: metric in metrics ? metric : Object.keys(metrics)[0],
    scale: SCALES.includes(query.get('scale')) ? query.get('scale') : SCALES[0],
  };
}

// Variant names and run ids are URL-safe, so the lists keep readable commas.
export function queryOf(state) {
  const parts = [];
  if (state.campaign) parts.push(`campaign=${encodeURIComponent(state.campaign)}`);
  for (const key of ['variants', 'runs']) {
    if (state[key].length) parts.push(`${key}=${state[key].map(encodeURIComponent).join(',')}`);
  }
  if (state.passes) parts.push('passes=1');
  for (const key of ['workload', 'base', 'metric', 'scale']) {
    if (state[key]) parts.push(`${key}=${encodeURIComponent(state[key])}`);
  }
  return `?${parts.join('&')}`;
}

// The shortest {campaign, variants, runs} that selects exactly the runs with these ids: the
// campaign holding most of them (two at least) by its variants and passes wherever every run
// of one is chosen, the rest by id.
export function compactSelection(index, ids) {
  const chosen = new Set(ids);
  const byId = new Map(index.runs.map((run) => [run.id, run]));
  const counted = (campaign) => campaign.runs.filter((id) => chosen.has(id)).length;
  const campaign = index.campaigns.reduce((best, one) => (counted(one) > (best ? counted(best) : 1) ? one : best), null);
  const variants = [];
  const named = new Set();
  if (campaign && counted(campaign) < campaign.runs.length) {
    const runs = campaign.runs.map((id) => byId.get(id));
    const groups = new Map();
    for (const run of runs) {
      for (const key of [run.variant, ...(run.pass == null ? [] : [passToken(run)])]) {
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(run.id);
      }
    }
    for (const [token, members] of groups) {
      if (members.every((id) => chosen.has(id) && !named.has(id))) {
        variants.push(token);
        for (const id of members) named.add(id);
      }
    }
  } else if (campaign) {
    for (const id of campaign.runs) named.add(id);
  }
  return {
    campaign: named.size ? campaign.id : '',
    variants,
    runs: index.runs.filter((run) => chosen.has(run.id) && !named.has(run.id)).map((run) => run.id),
  };
}
