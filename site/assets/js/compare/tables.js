// The compare page's tables: values by threads (under each chart), ratios to the base by
// threads (as the campaign pages show them, each with its interval), and the series x threads
// heatmap.
import { element } from '../dom.js';
import { formatNumber } from '../format.js';
import { pairInterval } from './interval.js';
import { flagKinds, flagWords, judgedOn, passFlags, unflaggedEntry, whyNotJudged } from './flags.js';
import { ratioCell, roundRatio } from './ratio.js';
import { summariesByThreads, threadLevels, valuesByThreads } from './selection.js';

// Cells are coloured up to this share of the verdict colour; at a ratio of 2 (or 0.5) or beyond.
const HEAT_MAX_MIX = 45;

function headerRow(table, first, names) {
  const row = table.createTHead().insertRow();
  row.append(element('th', { scope: 'col' }, first));
  for (const name of names) row.append(element('th', { scope: 'col' }, name));
}

export function valuesTable(index, series, fields) {
  const table = element('table', { class: 'num' });
  const names = series.flatMap(({ label }) => fields.map((field) => (fields.length > 1 ? `${label} ${field}` : label)));
  headerRow(table, 'threads', names);
  const body = table.createTBody();
  for (const threads of threadLevels(index, series)) {
    const row = body.insertRow();
    row.insertCell().textContent = String(threads);
    for (const { entry } of series) {
      for (const field of fields) row.insertCell().textContent = formatNumber(valuesByThreads(index, entry, field).get(threads));
    }
  }
  return table;
}

// A side's values and summaries of the metric by threads, over all its passes and over its
// unflagged ones (flags.js).
function sidesOf(index, entry, metric) {
  const read = (one) => ({ values: valuesByThreads(index, one, metric), summaries: summariesByThreads(index, one, metric) });
  return { all: read(entry), unflagged: read(unflaggedEntry(entry)) };
}

// Per series, per threads: the ratio cell of the metric against the base series, judged on the
// passes the flagged-pass rule picks (flags.js), or greyed.
function ratioGrid(index, series, base, metric) {
  const info = index.metrics[metric];
  const baseSides = sidesOf(index, base.entry, metric);
  return series.map(({ entry }) => {
    const ownSides = sidesOf(index, entry, metric);
    const isBase = entry === base.entry;
    return threadLevels(index, series).map((threads) => {
      const flags = passFlags(index, entry, threads);
      const baseFlags = passFlags(index, base.entry, threads);
      const judged = [judgedOn(flags), judgedOn(baseFlags)];
      const greyed = judged.includes(null);
      const own = greyed ? ownSides.all : ownSides[judged[0]];
      const theirs = greyed ? baseSides.all : baseSides[judged[1]];
      const value = own.values.get(threads);
      const baseValue = theirs.values.get(threads);
      const ratio = value / baseValue;
      const sides = [theirs.summaries.get(threads), own.summaries.get(threads)];
      const imported = isBase ? null : weakestEvidence(base.entry, entry);
      const computable = sides.every(Boolean) && imported !== 'summary';
      const interval = isBase || !computable ? null : pairInterval(...sides, ratio, index.ratio.interval);
      let cell = withoutInterval(ratioCell(value, baseValue, info.higher_is_better, index.ratio, interval), imported, index.ratio);
      if (greyed && !isBase && cell.state === 'ratio') {
        cell = { ...cell, verdict: 'flagged', marker: '', noJudgement: whyNotJudged(flags, baseFlags) };
      }
      const unflagged = !greyed && judged[0] === 'unflagged';
      const repeats = unflagged ? flags.passes - flags.flagged : null;
      return { threads, value, flags, measured: !entry.evidence, unflagged, repeats, ...cell };
    });
  });
}

// The weaker evidence of two entries (generator/analysis/evidence.py): 'summary', 'imported',
// or null when both were measured (an entry of a measured run carries no evidence).
function weakestEvidence(...entries) {
  const evidence = entries.map((entry) => entry.evidence);
  if (evidence.includes('summary')) return 'summary';
  return evidence.includes('imported') ? 'imported' : null;
}

// A cell resting on imported figures without an interval reads as the campaign pages write it
// (generator/analysis/ratios.py stat_cell): not judged beyond the band, never coloured, and why.
function withoutInterval(cell, imported, rule) {
  if (!imported || cell.interval || cell.state !== 'ratio') return cell;
  const judged = cell.verdict === 'noise' ? 'unjudged' : cell.verdict;
  return { ...cell, verdict: judged, marker: judged === 'unjudged' ? '' : cell.marker, noInterval: rule.no_interval[imported] };
}

// A ratio or bound as the campaign pages print it: at the ratio's decimals (index.ratio.decimals).
function ratioText(x, decimals) {
  return roundRatio(x, decimals).toFixed(decimals);
}

// An interval from per-second samples carries the campaign pages' * note.
const PER_SECOND_NOTE = 'from per-second samples, counted as effective samples since consecutive seconds are correlated; '
  + 'the noise between runs is not in them, only repeats measure it';

function intervalSpan(interval, decimals) {
  const span = element('span', { class: 'interval' }, `${ratioText(interval.low, decimals)}–${ratioText(interval.high, decimals)}`);
  if (interval.method !== 'repeats') span.append(element('abbr', { title: PER_SECOND_NOTE }, '*'));
  return span;
}

// A cell's flagged passes: "⚑ k/n", their kinds for screen readers (the title counts them and
// names the kinds too), as layouts/_partials/campaign/flag-mark.html writes it.
function flagMark(index, counted) {
  const mark = element('span', { class: 'flags' }, ` ⚑ ${counted.flagged}/${counted.passes}`);
  mark.append(element('span', { class: 'sr-only' }, ` flagged: ${flagKinds(index, counted)}`));
  return mark;
}

// The flags, the passes judged on and why not judged, as ratio_cells.py's title ends.
function flagTitle(cell, words) {
  let title = words ? `; ${words}` : '';
  if (cell.unflagged) title += `; judged on its ${cell.repeats} unflagged passes`;
  if (cell.noJudgement) title += `; not judged: ${cell.noJudgement}`;
  return title;
}

// The td of a ratio, as layouts/_partials/campaign/cells.html writes it; index: the compare
// index (its ratio rule and flag kinds).
function ratioTd(cell, unit, index) {
  const rule = index.ratio;
  // a cell resting on imported figures has no verdicts to count (ratio_cells.py _flag_text)
  const words = cell.measured ? flagWords(index, cell.flags) : '';
  const marked = (td) => {
    if (cell.flags.flagged) td.append(flagMark(index, cell.flags));
    return td;
  };
  if (cell.state === 'missing') return element('td', { class: 'missing', title: 'not measured' }, '—');
  if (cell.state === 'n/a') {
    const title = `${formatNumber(cell.value)} ${unit}; no ratio: the base has no value or zero${flagTitle(cell, words)}`;
    return marked(element('td', { class: 'na', title }, 'n/a'));
  }
  const confidence = Math.round(rule.interval.confidence * 100);
  let title = `${formatNumber(cell.value)} ${unit}`;
  if (cell.noInterval) title += `; no interval, not judged: ${cell.noInterval}`;
  if (cell.interval) {
    title += `; ${confidence} % interval of the ratio ${ratioText(cell.interval.low, rule.decimals)}–${ratioText(cell.interval.high, rule.decimals)} from ${cell.interval.method}`;
  }
  title += flagTitle(cell, words);
  const td = element('td', { class: cell.verdict, title }, ratioText(cell.ratio, rule.decimals));
  if (cell.marker) {
    const marker = element('span', { class: 'marker' });
    const words = cell.verdict === 'noise' ? 'within noise' : cell.verdict;
    marker.append(element('span', { 'aria-hidden': 'true' }, ` ${cell.marker}`), element('span', { class: 'sr-only' }, ` (${words})`));
    td.append(marker);
  }
  if (cell.verdict === 'flagged') td.append(element('span', { class: 'sr-only' }, ' (not judged)'));
  marked(td);
  if (cell.interval) td.append(intervalSpan(cell.interval, rule.decimals));
  if (cell.noInterval) {
    const span = element('span', { class: 'interval unavailable' }, 'interval n/a');
    span.append(element('span', { class: 'sr-only' }, ` (${cell.noInterval})`));
    td.append(span);
  }
  return td;
}

export function ratioTable(index, series, base, metric) {
  const info = index.metrics[metric];
  const grid = ratioGrid(index, series, base, metric);
  const table = element('table', { class: 'num ratios', id: 'compare-ratio-table' });
  table.createCaption().textContent = `${info.label} (${info.unit}) ÷ ${base.label}`;
  const named = ({ label, entry }) => (entry.evidence ? `${label} (${entry.evidence})` : label);
  headerRow(table, 'threads', series.map((one) => (one.label === base.label ? `${named(one)} (base)` : named(one))));
  const body = table.createTBody();
  threadLevels(index, series).forEach((threads, i) => {
    const row = body.insertRow();
    row.insertCell().textContent = String(threads);
    for (const cells of grid) row.append(ratioTd(cells[i], info.unit, index));
  });
  return table;
}

// Only better and worse are coloured (a change within noise is not); colour grows with the size
// of the change (log scale, full at 2x or 0.5x); the markers and the printed ratio carry the
// verdict for readers who cannot tell the colours apart.
export function heatmap(index, series, base, metric) {
  const info = index.metrics[metric];
  const grid = ratioGrid(index, series, base, metric);
  const table = element('table', { class: 'num heatmap', id: 'compare-heatmap-table' });
  table.createCaption().textContent = `${info.label} ÷ ${base.label}, by run and threads`;
  headerRow(table, 'run', threadLevels(index, series).map(String));
  const body = table.createTBody();
  series.forEach(({ label }, i) => {
    const row = body.insertRow();
    row.append(element('th', { scope: 'row' }, label === base.label ? `${label} (base)` : label));
    for (const cell of grid[i]) {
      const td = ratioTd(cell, info.unit, index);
      if (cell.verdict === 'better' || cell.verdict === 'worse') {
        const strength = Math.min(1, Math.abs(Math.log2(cell.ratio)));
        td.style.setProperty('--heat', `${Math.round(HEAT_MAX_MIX * (0.3 + 0.7 * strength))}%`);
      }
      row.append(td);
    }
  });
  return table;
}
