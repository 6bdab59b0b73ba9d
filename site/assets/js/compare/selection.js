// From the index and the view state to what is drawn: the selected runs, their workloads, and
// the series (one per run) of the workload on screen, each with a label unique within it.

export function selectedRuns(index, state) {
  const campaign = index.campaigns.find((candidate) => candidate.id === state.campaign);
  const ids = new Set([...(campaign?.runs ?? []), ...state.runs]);
  return index.runs.filter((run) => ids.has(run.id));
}

export function workloadsOf(runs) {
  return [...new Set(runs.map((run) => run.workload))];
}

// Labels are the variant (and repeat); with several campaigns selected they are prefixed with
// the campaign id, so the base keeps its meaning when the reader switches workload.
export function seriesOf(runs, workload) {
  const several = new Set(runs.map((run) => run.campaign)).size > 1;
  const mine = runs.filter((run) => run.workload === workload);
  const labels = mine.map((run) => (several ? `${run.campaign} ${run.label}` : run.label));
  return mine.map((run, i) => ({
    run,
    label: labels.filter((label) => label === labels[i]).length > 1 ? run.id : labels[i],
  }));
}

// threads -> value of one field of the index's step arrays (see step_fields).
export function valuesByThreads(index, run, field) {
  const column = index.step_fields.indexOf(field);
  return new Map(run.steps.map((step) => [step[0], step[column]]));
}

// threads -> one field's log summary of the kept per-second samples (see seconds_fields).
export function summariesByThreads(index, run, field) {
  const column = index.seconds_fields.indexOf(field);
  return new Map(run.steps.map((step, i) => [step[0], run.seconds[i][column]]));
}

export function threadLevels(index, series) {
  const levels = new Set(series.flatMap(({ run }) => run.steps.map((step) => step[0])));
  return [...levels].sort((a, b) => a - b);
}
