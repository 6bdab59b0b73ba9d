// Where the server's time went, between the runs on screen: for runs the compare index marks
// "profiled", their per-step function shares (generator/pages/profiles.py share_file, at most
// SHARE_FILE_FUNCTIONS functions per step by total share) and links to each step's flame graph.
// A series' passes are merged by samples; the functions whose total share moved most against the
// base are ranked as generator/analysis/profiles.py share_changes ranks them. A differential
// flame graph is drawn only for campaign cells, on the campaign's pages: drawing one for any two
// runs would mean shipping whole profiles to the page.
import { element } from '../dom.js';

export const CHANGES_SHOWN = 15; // pages/profiles.TOP_FUNCTIONS

// name -> {total, self}: the parts' ([{samples, functions: [[name, total %, self %]]}]) shares
// weighted by their samples, as the shares of their samples merged.
export function mergedShares(parts) {
  const samples = parts.reduce((sum, part) => sum + part.samples, 0);
  const merged = new Map();
  if (!samples) return merged;
  for (const part of parts) {
    for (const [name, total, self] of part.functions) {
      const share = merged.get(name) ?? { total: 0, self: 0 };
      share.total += (total * part.samples) / samples;
      share.self += (self * part.samples) / samples;
      merged.set(name, share);
    }
  }
  return merged;
}

// [{function, base, variant, change}] of the functions whose total share moved, largest move
// first, then by name; a function missing on a side has no share there.
export function shareChanges(base, variant, limit = CHANGES_SHOWN) {
  const none = { total: 0, self: 0 };
  const names = new Set([...base.keys(), ...variant.keys()]);
  const changes = [...names].map((name) => {
    const [was, is] = [base.get(name) ?? none, variant.get(name) ?? none];
    return { function: name, base: was, variant: is, change: is.total - was.total };
  }).filter(({ change }) => change !== 0);
  changes.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.function < b.function ? -1 : a.function > b.function ? 1 : 0));
  return changes.slice(0, limit);
}

const cell = (value) => element('td', {}, value.toFixed(1));

function changeTable(changes, baseLabel, label) {
  const table = element('table', { class: 'num' });
  table.append(element('caption', {}, `${label} against ${baseLabel}: the functions whose share of the samples moved most (total: the function anywhere on the stack; self: running itself)`));
  const head = element('tr');
  for (const text of ['function', `${baseLabel} total %`, `${label} total %`, 'change (points)', `${baseLabel} self %`, `${label} self %`]) {
    head.append(element('th', { scope: 'col' }, text));
  }
  const [thead, tbody] = [element('thead'), element('tbody')];
  thead.append(head);
  table.append(thead, tbody);
  for (const row of changes) {
    const tr = element('tr');
    const name = element('td');
    name.append(element('code', {}, row.function));
    const change = element('td', {}, `${row.change > 0 ? '+' : ''}${row.change.toFixed(1)}`);
    tr.append(name, cell(row.base.total), cell(row.variant.total), change, cell(row.base.self), cell(row.variant.self));
    tbody.append(tr);
  }
  return table;
}

// The section's elements for series (compare/selection.js seriesOf) against base at threads;
// shares: run id -> its share file (only profiled runs have one).
export function profileSection(series, base, threads, shares, runsBase) {
  const partsOf = (one) => one.runs.map((run) => shares.get(run.id)?.steps[String(threads)]).filter(Boolean);
  const links = element('ul', { class: 'profile-links' });
  for (const one of series) {
    const profiled = one.runs.filter((run) => shares.get(run.id)?.steps[String(threads)]);
    if (!profiled.length) continue;
    const item = element('li', {}, `${one.label}: flame graph of `);
    profiled.forEach((run, i) => {
      item.append(i ? ', ' : '', element('a', { href: `${runsBase}${run.id}/flame-${threads}.svg` }, run.pass == null ? run.id : `pass ${run.pass}`));
    });
    links.append(item);
  }
  if (!links.children.length) return [element('p', {}, `None of these runs was profiled at ${threads} threads.`)];
  const out = [links];
  const baseParts = partsOf(base);
  if (!baseParts.length) {
    out.push(element('p', {}, `${base.label} was not profiled at ${threads} threads: pick a profiled base to compare functions.`));
    return out;
  }
  const baseShares = mergedShares(baseParts);
  for (const one of series) {
    const parts = partsOf(one);
    if (one === base || !parts.length) continue;
    out.push(changeTable(shareChanges(baseShares, mergedShares(parts)), base.label, one.label));
  }
  return out;
}
