// Plotly traces and layouts of the compare page's three charts, one line per series: one hue per
// variant (the site's palette, in order of appearance), its passes told apart by dash and shade.
// Every point carries [threads, run id ...] for the drill-down: a merged series' point names
// all its passes. A point resting on a flagged pass (generator/analysis/verdict.py; the values
// are over all passes) is hollow, its flags on hover, as the generator's charts draw it
// (generator/figures/sweep.py), with a legend entry saying what hollow means.
import { COLORWAY, tickLabel } from '../chart-style.js';
import { flagWords, passFlags } from './flags.js';
import { valuesByThreads } from './selection.js';

const HOLLOW_LEGEND = 'hollow: flagged, unfit to judge';

const PASS_DASHES = ['solid', 'dash', 'dot', 'dashdot', 'longdash'];
const PASS_SHADE_STEP = 0.2; // each later pass is drawn this much more transparent, down to 0.4
const TICK_STEPS = [1, 2, 5]; // log-axis ticks per decade
const MAX_TICKS = 10; // beyond this many, a log axis keeps the 1s of each decade only

function threadsAxis(levels) {
  return { title: { text: 'threads' }, type: 'log', tickvals: levels, ticktext: levels.map(String) };
}

// Ticks at steps × 10^k covering [low, high] (positive), with one beyond each end so that even a
// range inside one decade shows labelled ticks; the axis range is set to the outer ones.
function ticksAt(steps, low, high) {
  const ticks = [];
  for (let decade = Math.floor(Math.log10(low)) - 1; 10 ** decade <= high * 10; decade += 1) {
    for (const step of steps) ticks.push(Number((step * 10 ** decade).toPrecision(1)));
  }
  return ticks.slice(ticks.findLastIndex((tick) => tick <= low), ticks.findIndex((tick) => tick >= high) + 1);
}

// 1, 2, 5, 10 … ; over a range so wide that they would be more than MAX_TICKS, 1, 10, 100 ….
export function logTicks(low, high) {
  if (low === high) return logTicks(low / 2, high * 2); // one value: still an axis around it
  const ticks = ticksAt(TICK_STEPS, low, high);
  return ticks.length > MAX_TICKS ? ticksAt([1], low, high) : ticks;
}

function valueAxis(title, scale, values) {
  if (scale !== 'log') return { title: { text: title }, type: 'linear', rangemode: 'tozero' };
  const positive = values.filter((value) => value > 0);
  if (!positive.length) return { title: { text: title }, type: 'log' };
  const ticks = logTicks(Math.min(...positive), Math.max(...positive));
  return {
    title: { text: title },
    type: 'log',
    tickvals: ticks,
    ticktext: ticks.map(tickLabel),
    range: [Math.log10(ticks[0]), Math.log10(ticks[ticks.length - 1])],
  };
}

// {color, dash, opacity} per series: the hue of its variant, the dash and shade of its pass.
export function seriesStyles(series) {
  const variants = [...new Set(series.map(({ variant }) => variant))];
  return series.map(({ variant, pass }) => {
    const rank = pass == null ? 0 : pass - 1;
    return {
      color: COLORWAY[variants.indexOf(variant) % COLORWAY.length],
      dash: PASS_DASHES[rank % PASS_DASHES.length],
      opacity: Math.max(0.4, 1 - PASS_SHADE_STEP * rank),
    };
  });
}

function line(index, { entry, runs, label }, style, xField, yField) {
  const xs = valuesByThreads(index, entry, xField);
  const ys = valuesByThreads(index, entry, yField);
  const levels = [...ys.keys()];
  const flags = levels.map((threads) => passFlags(index, entry, threads));
  const text = (threads, i) => {
    const shown = runs.length > 1 ? `${threads} threads, median of ${runs.length} passes` : `${threads} threads`;
    return flags[i].flagged ? `${shown}; ${flagWords(index, flags[i])}` : shown;
  };
  return {
    type: 'scatter',
    mode: 'lines+markers',
    name: label,
    line: { color: style.color, dash: style.dash },
    marker: { color: style.color, symbol: flags.map((counted) => (counted.flagged ? 'circle-open' : 'circle')) },
    opacity: style.opacity,
    x: levels.map((threads) => xs.get(threads)),
    y: levels.map((threads) => ys.get(threads)),
    text: levels.map(text),
    customdata: levels.map((threads) => [threads, ...runs.map((run) => run.id)]),
  };
}

// traces, and a legend-only entry naming what a hollow marker means when one of them has one.
function withLegend(traces) {
  if (!traces.some((trace) => trace.marker.symbol.includes('circle-open'))) return traces;
  const legend = { type: 'scatter', mode: 'markers', name: HOLLOW_LEGEND, x: [null], y: [null], hoverinfo: 'skip' };
  return [...traces, { ...legend, marker: { symbol: 'circle-open', size: 9, color: '#7f7f7f' } }];
}

// [[element id, data, layout]] for the throughput, latency and latency-vs-throughput charts.
export function compareFigures(index, series, levels, metric, scale) {
  const throughput = metric === 'qps' ? 'qps' : 'tps';
  const tputTitle = `${index.metrics[throughput].label} (${index.metrics[throughput].unit})`;
  const p95Title = `${index.metrics.p95.label} (${index.metrics.p95.unit})`;
  const styles = seriesStyles(series);
  const traces = (xField, yField) => withLegend(series.map((one, i) => line(index, one, styles[i], xField, yField)));
  const values = (field) => series.flatMap(({ entry }) => [...valuesByThreads(index, entry, field).values()]);
  const tputAxis = valueAxis(tputTitle, scale, values(throughput));
  const p95Axis = valueAxis(p95Title, scale, values('p95'));
  // One point per click: the nearest line's, not every line's at that x.
  const common = { hovermode: 'closest' };
  return [
    ['compare-throughput', traces('threads', throughput), { ...common, xaxis: threadsAxis(levels), yaxis: tputAxis }],
    ['compare-latency', traces('threads', 'p95'), { ...common, xaxis: threadsAxis(levels), yaxis: p95Axis }],
    ['compare-latency-throughput', traces(throughput, 'p95'), { ...common, xaxis: tputAxis, yaxis: p95Axis }],
  ];
}
