// The /browse/ filters: one <select> per field of the generated index, the list redrawn on every
// change, and the choices kept in the URL's query so a filtered list can be linked. The page
// arrives with every run listed from the same index (layouts/browse/section.html) and the
// filters hidden: they are shown once the index is here.
import * as params from '@params';
import { fetchJson } from './dom.js';
import { formatNumber } from './format.js';

// Rows drawn at most: ten thousand table rows make a slow page and nobody reads them.
const MAX_ROWS = 500;
const form = document.getElementById('browse-filters');
const count = document.getElementById('browse-count');
const tbody = document.querySelector('#browse-results tbody');

// The values a run offers to each filter; "option" is a list (one entry per varied option).
const FIELDS = {
  product: (run) => [run.product],
  version: (run) => [`${run.product} ${run.version}`],
  workload: (run) => [run.workload],
  campaign: (run) => [run.campaign],
  host: (run) => [run.host],
  option: (run) => run.options,
};

// A filter's value is what the index records (a campaign id, a host fingerprint); its label is
// the name the index gives that value, where it gives one.
function fillSelects(runs, names) {
  for (const [name, valuesOf] of Object.entries(FIELDS)) {
    const counts = new Map();
    for (const run of runs) for (const value of valuesOf(run)) counts.set(value, (counts.get(value) ?? 0) + 1);
    const select = form.elements[name];
    const labelOf = (value) => names[name]?.[value] ?? value;
    const values = [...counts.keys()].sort((a, b) => labelOf(a).localeCompare(labelOf(b)));
    for (const value of values) select.add(new Option(`${labelOf(value)} (${counts.get(value)})`, value));
  }
}

function chosen() {
  return Object.keys(FIELDS)
    .map((name) => [name, form.elements[name].value])
    .filter(([, value]) => value);
}

function cell(row, content, className) {
  const td = row.insertCell();
  if (content instanceof Node) td.append(content);
  else td.textContent = content;
  if (className) td.className = className;
}

function link(href, text) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

function render(runs, { campaign: campaigns, host: hosts }) {
  const filters = chosen();
  const matching = runs.filter((run) => filters.every(([name, value]) => FIELDS[name](run).includes(value)));
  const rows = matching.slice(0, MAX_ROWS).map((run) => {
    const row = document.createElement('tr');
    cell(row, link(`${params.runs}${run.id}/`, run.name));
    cell(row, run.date);
    cell(row, link(`${params.campaigns}${run.campaign}/`, campaigns[run.campaign] ?? run.campaign));
    cell(row, hosts[run.host] ?? run.host);
    cell(row, run.status, `status-${run.status}`);
    cell(row, `${formatNumber(run.headline.value)} ${run.headline.label}`.trim(), 'n');
    return row;
  });
  tbody.replaceChildren(...rows);
  const shown = matching.length > MAX_ROWS ? `; the first ${MAX_ROWS} are listed, narrow the filters` : '';
  count.textContent = `${matching.length} of ${runs.length} runs${shown}.`;
}

function saveToUrl() {
  const query = new URLSearchParams(chosen()).toString();
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
}

async function main() {
  const { runs, campaigns, hosts } = await fetchJson(params.index);
  const names = { campaign: campaigns, host: hosts };
  fillSelects(runs, names);
  for (const [name, value] of new URLSearchParams(location.search)) {
    const select = form.elements[name];
    if (select instanceof HTMLSelectElement && [...select.options].some((o) => o.value === value)) select.value = value;
  }
  form.addEventListener('change', () => { saveToUrl(); render(runs, names); });
  // "reset" fires before the form clears its fields.
  form.addEventListener('reset', () => setTimeout(() => { saveToUrl(); render(runs, names); }));
  render(runs, names);
  form.hidden = false;
}

main().catch((error) => {
  count.textContent = `The index could not be loaded (${error.message}).`;
  console.error(error);
});
