// Plotly traces and layouts of the compare page's three charts, one line per series; every
// point carries [threads, run id] for the drill-down.
import { valuesByThreads } from './selection.js';

function threadsAxis(levels) {
  return { title: { text: 'threads' }, type: 'log', tickvals: levels, ticktext: levels.map(String) };
}

function line(index, { run, label }, xField, yField) {
  const xs = valuesByThreads(index, run, xField);
  const ys = valuesByThreads(index, run, yField);
  const levels = [...ys.keys()];
  return {
    type: 'scatter',
    mode: 'lines+markers',
    name: label,
    x: levels.map((threads) => xs.get(threads)),
    y: levels.map((threads) => ys.get(threads)),
    text: levels.map((threads) => `${threads} threads`),
    customdata: levels.map((threads) => [threads, run.id]),
  };
}

// [[element id, data, layout]] for the throughput, latency and latency-vs-throughput charts.
export function compareFigures(index, series, levels, metric, scale) {
  const throughput = metric === 'qps' ? 'qps' : 'tps';
  const tputTitle = `${index.metrics[throughput].label} (${index.metrics[throughput].unit})`;
  const p95Title = `${index.metrics.p95.label} (${index.metrics.p95.unit})`;
  const yScale = scale === 'log' ? { type: 'log' } : { type: 'linear', rangemode: 'tozero' };
  // One point per click: the nearest line's, not every line's at that x.
  const common = { hovermode: 'closest' };
  return [
    [
      'compare-throughput',
      series.map((one) => line(index, one, 'threads', throughput)),
      { ...common, xaxis: threadsAxis(levels), yaxis: { title: { text: tputTitle }, ...yScale } },
    ],
    [
      'compare-latency',
      series.map((one) => line(index, one, 'threads', 'p95')),
      { ...common, xaxis: threadsAxis(levels), yaxis: { title: { text: p95Title }, ...yScale } },
    ],
    [
      'compare-latency-throughput',
      series.map((one) => line(index, one, throughput, 'p95')),
      {
        ...common,
        xaxis: { title: { text: tputTitle }, ...yScale },
        yaxis: { title: { text: p95Title }, ...yScale },
      },
    ],
  ];
}
