// From the index and the view state to what is drawn: the selected runs, their workloads, and
// the series of the workload on screen, each with a label unique within it. A series is one run,
// or (passes merged, the default) a campaign cell whose counted passes are all selected, drawn
// from the index's cell: medians and summaries as its campaign page computes them.

export function selectedRuns(index, state) {
  const campaign = index.campaigns.find((candidate) => candidate.id === state.campaign);
  const picked = new Set(state.variants);
  const byId = new Map(index.runs.map((run) => [run.id, run]));
  const inCampaign = (campaign?.runs ?? []).filter((id) => {
    const run = byId.get(id);
    return !picked.size || picked.has(run.variant) || picked.has(passToken(run));
  });
  const ids = new Set([...inCampaign, ...state.runs]);
  return index.runs.filter((run) => ids.has(run.id));
}

// How the URL names one pass of a variant (state.js): variant~pass.
export function passToken(run) {
  return `${run.variant}~${run.pass}`;
}

export function workloadsOf(runs) {
  return [...new Set(runs.map((run) => run.workload))];
}

function cellOf(index, run) {
  return index.cells.find(
    (cell) => cell.campaign === run.campaign && cell.variant === run.variant && cell.workload === run.workload,
  );
}

// [{entry, runs, variant, pass}]: entry holds the steps and summaries drawn (a run of the index,
// or a cell with id: its first pass's); runs, the index's runs behind it; variant, the
// campaign and variant (one hue each); pass, the run's pass when it stands alone.
function entriesOf(index, mine, merged) {
  const groups = new Map();
  for (const run of mine) {
    const key = `${run.campaign} ${run.variant}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(run);
  }
  return [...groups].flatMap(([variant, runs]) => {
    const cell = cellOf(index, runs[0]);
    const whole = cell && cell.runs.length > 1 && cell.runs.every((id) => runs.some((run) => run.id === id));
    if (merged && whole) {
      const behind = runs.filter((run) => cell.runs.includes(run.id));
      return [{ entry: { ...cell, id: cell.runs[0] }, runs: behind, variant, pass: null }];
    }
    return runs.map((run) => ({ entry: run, runs: [run], variant, pass: run.pass }));
  });
}

// Labels are the variant (and pass); with several campaigns selected they are prefixed with the
// campaign id, so the base keeps its meaning when the reader switches workload.
export function seriesOf(index, runs, workload, merged) {
  const several = new Set(runs.map((run) => run.campaign)).size > 1;
  const entries = entriesOf(index, runs.filter((run) => run.workload === workload), merged);
  const labels = entries.map(({ entry, runs: behind, pass }) => {
    const name = pass == null ? behind[0].variant : behind[0].label;
    return several ? `${entry.campaign} ${name}` : name;
  });
  return entries.map((one, i) => ({
    ...one,
    label: labels.filter((label) => label === labels[i]).length > 1 ? one.entry.id : labels[i],
  }));
}

// threads -> value of one field of the index's step arrays (see step_fields).
export function valuesByThreads(index, entry, field) {
  const column = index.step_fields.indexOf(field);
  return new Map(entry.steps.map((step) => [step[0], step[column]]));
}

// threads -> {repeats, seconds}: one field's summaries (generator/analysis/stats.py's
// sample_summaries; see seconds_fields). A run has no repeats.
export function summariesByThreads(index, entry, field) {
  const column = index.seconds_fields.indexOf(field);
  return new Map(entry.steps.map((step, i) => [
    step[0],
    { repeats: entry.repeats?.[i][column] ?? null, seconds: entry.seconds[i][column] },
  ]));
}

export function threadLevels(index, series) {
  const levels = new Set(series.flatMap(({ entry }) => entry.steps.map((step) => step[0])));
  return [...levels].sort((a, b) => a - b);
}
