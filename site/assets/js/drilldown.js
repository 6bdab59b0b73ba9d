// Point drill-down: clicking a point of a threads chart opens, under the chart, that step's
// per-second series (TPS, latency, and the monitoring families the run sampled), read from
// the run's published run.json. A point says what it stands for in its customdata:
// [threads, run id, run id ...] (several runs when it is the median of repeats).
import { element, fetchJson } from './dom.js';
import { formatNumber } from './format.js';
import { plot } from './plot.js';

const PLOT_HEIGHT = 260; // px: several series charts stack under the clicked one
const runDocs = new Map();

// A run's published run.json, fetched once per page (the compare page's config diff and the
// drill-down share it).
export function fetchRun(runsBase, id) {
  if (!runDocs.has(id)) runDocs.set(id, fetchJson(`${runsBase}${id}/run.json`));
  return runDocs.get(id);
}

// [title, unit, [[metric, values]]] per monitoring family present in the step; metrics named
// with the sampled INNODB_METRICS prefix form one family per kind the run recorded
// (step.monitor.kinds), and one said to be mixed for those whose kind it did not record.
function monitorFamilies(step, rules) {
  const series = step.monitor?.series ?? {};
  const pick = (metrics) => metrics.filter((metric) => metric in series).map((metric) => [metric, series[metric]]);
  const families = rules.families.map(([, title, unit, metrics]) => [title, unit, pick(metrics)]);
  const { prefix, kinds, mixed } = rules.sampled;
  const recorded = step.monitor?.kinds ?? {};
  const sampled = Object.keys(series).filter((metric) => metric.startsWith(prefix)).sort();
  for (const [kind, [title, unit]] of Object.entries(kinds)) {
    families.push([title, unit, pick(sampled.filter((metric) => recorded[metric] === kind))]);
  }
  families.push([...mixed, pick(sampled.filter((metric) => !(metric in recorded)))]);
  return families.filter(([, , metrics]) => metrics.length);
}

// The step's per-second latency as [percentile, values], named by the percentile its lines
// report: p95_ms as the harness runs sysbench, p99_ms from a log written with --percentile=99;
// null for a log at --percentile=0, whose lines report none.
function latencySeries(series) {
  const name = Object.keys(series).find((key) => /^p[0-9]+_ms$/.test(key));
  return name ? [name.slice(0, -3), series[name]] : null;
}

function seriesTable(step) {
  const table = element('table', { class: 'num' });
  const head = table.createTHead().insertRow();
  const latency = latencySeries(step.series);
  const names = ['second', 'TPS', 'QPS', ...(latency ? [`${latency[0]} (ms)`] : [])];
  for (const name of names) head.append(element('th', { scope: 'col' }, name));
  const body = table.createTBody();
  step.series.t.forEach((t, i) => {
    const row = body.insertRow();
    for (const value of [t, step.series.tps[i], step.series.qps[i], ...(latency ? [latency[1][i]] : [])]) {
      row.insertCell().textContent = formatNumber(value);
    }
  });
  const details = element('details', { class: 'chart-data' });
  details.append(element('summary', {}, 'Data table'), table);
  return details;
}

function chartBox(panel, label) {
  const box = element('div', { class: 'chart-plot drilldown-plot', role: 'img', 'aria-label': label });
  panel.append(box);
  return box;
}

async function drawStep(panel, options, run, threads) {
  const step = run.steps.find((candidate) => candidate.threads === threads);
  const body = panel.querySelector('.drilldown-body');
  body.replaceChildren();
  const name = `${run.variant}, ${run.workload.name}, ${threads} threads`;
  const link = element('a', { href: `${options.runsBase}${run.id}/` }, run.id);
  const meta = element('p', { class: 'meta' }, 'Run ');
  meta.append(link, `, step at ${threads} threads.`);
  body.append(meta);
  if (!step) {
    body.append(element('p', {}, 'This run has no step at this thread count.'));
    return;
  }
  if (!step.series) { // an imported step: a published figure, or a log without interval lines
    body.append(element('p', {}, 'This step has no per-second samples: its source did not record them.'));
    return;
  }
  const t = step.series.t;
  const line = (label, y) => ({ name: label, x: t, y, mode: 'lines+markers', type: 'scatter' });
  const latency = latencySeries(step.series);
  const charts = [
    ['TPS per second', [line('TPS', step.series.tps)], 'transactions per second'],
    ...(latency ? [[`${latency[0]} latency per second`, [line(latency[0], latency[1])], 'latency (ms)']] : []),
    ...monitorFamilies(step, options.families).map(([title, unit, metrics]) => [
      title,
      metrics.map(([metric, values]) => ({
        name: metric,
        x: step.monitor.series.t,
        y: values,
        mode: 'lines',
        type: 'scatter',
      })),
      // one line draws no legend: the y title names its metric
      metrics.length === 1 ? `${metrics[0][0]} ${unit}` : unit,
    ]),
  ];
  for (const [title, data, unit] of charts) {
    body.append(element('h4', {}, title));
    const box = chartBox(body, `${title}: ${name}`);
    const layout = {
      height: PLOT_HEIGHT,
      xaxis: { title: { text: 'seconds into the step' } },
      yaxis: { title: { text: unit }, rangemode: 'tozero' },
    };
    await plot(options.plotlySrc, box, data, layout, `${run.id}-${threads}-threads`);
  }
  body.append(seriesTable(step));
}

// Opens (or replaces) the panel under `anchor` for the given threads and runs.
export async function openDrilldown(anchor, options, threads, runIds) {
  let panel = anchor.nextElementSibling;
  if (!panel?.classList.contains('drilldown')) {
    panel = element('section', { class: 'drilldown', 'aria-live': 'polite' });
    anchor.after(panel);
  }
  panel.replaceChildren();
  const heading = element('h3', {}, `Per-second series at ${threads} threads`);
  const close = element('button', { type: 'button', class: 'drilldown-close' }, 'Close');
  close.addEventListener('click', () => panel.remove());
  heading.append(' ', close);
  panel.append(heading);
  const runs = await Promise.all(runIds.map((id) => fetchRun(options.runsBase, id)));
  if (runs.length > 1) {
    // A median of repeats: the reader picks which repeat's series to see.
    const picker = element('select', { class: 'drilldown-run', 'aria-label': 'run' });
    runs.forEach((run, i) => picker.append(element('option', { value: String(i) }, run.id)));
    picker.addEventListener('change', () => drawStep(panel, options, runs[picker.value], threads));
    const label = element('label', {}, 'Run ');
    label.append(picker);
    panel.append(label);
  }
  panel.append(element('div', { class: 'drilldown-body' }));
  await drawStep(panel, options, runs[0], threads);
  panel.scrollIntoView({ block: 'nearest' });
}

// Makes the points of a drawn chart open their step; charts without customdata stay inert.
export function attachDrilldown(plotEl, anchor, options) {
  if (!plotEl.data.some((trace) => trace.customdata)) return;
  plotEl.on('plotly_click', (event) => {
    const point = event.points.find((candidate) => candidate.customdata);
    if (!point) return;
    const [threads, ...runIds] = point.customdata;
    openDrilldown(anchor, options, threads, runIds).catch((error) => {
      console.error(error);
    });
  });
}
