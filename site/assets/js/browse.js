// The /browse/ filters: one <select> per field of the generated filter index, the list redrawn on
// every change, and the choices kept in the URL's query so a filtered list can be linked. The
// page arrives with its first page of runs listed (layouts/browse/section.html) and the filters
// hidden: they are shown once the filter index is here. The filter index holds every run as
// positions in one list of values per filter (generator/pages/browse_split.py); the rows drawn
// come from the pages of runs that hold them, each fetched once, when first needed.
import * as params from '@params';
import { fetchJson } from './dom.js';
import { formatNumber } from './format.js';

// An imported run's badge, as layouts/_partials/evidence/badge.html words it.
const EVIDENCE_BADGES = { imported: 'imported from a sysbench log', summary: 'summary only: published figures' };
// Rows drawn at a time; "Show more" adds as many again.
const ROWS = 200;
const form = document.getElementById('browse-filters');
const count = document.getElementById('browse-count');
const more = document.getElementById('browse-more');
const tbody = document.querySelector('#browse-results tbody');
const pageFiles = JSON.parse(document.getElementById('browse-page-files').textContent);
const FILTERS = ['product', 'version', 'workload', 'campaign', 'host', 'evidence', 'option'];

// The values a run offers to each filter; "option" is a list (one entry per varied option).
function offered(index, run, name) {
  const at = FILTERS.indexOf(name);
  const positions = name === 'option' ? run[at] : [run[at]];
  return positions.map((position) => index.values[name][position]);
}

// A filter's value is what the index records (a campaign id, a host fingerprint); its label is
// the name the index gives that value, where it gives one.
function fillSelects(index, names) {
  for (const name of FILTERS) {
    const counts = new Map();
    for (const run of index.runs) for (const value of offered(index, run, name)) counts.set(value, (counts.get(value) ?? 0) + 1);
    const select = form.elements[name];
    const labelOf = (value) => names[name]?.[value] ?? value;
    const values = [...counts.keys()].sort((a, b) => labelOf(a).localeCompare(labelOf(b)));
    for (const value of values) select.add(new Option(`${labelOf(value)} (${counts.get(value)})`, value));
  }
}

function chosen() {
  return FILTERS.map((name) => [name, form.elements[name].value]).filter(([, value]) => value);
}

function cell(row, content, className) {
  const td = row.insertCell();
  if (content instanceof Node) td.append(content);
  else td.textContent = content;
  if (className) td.className = className;
  return td;
}

function link(href, text) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

function rowOf(run, { campaign: campaigns, host: hosts }) {
  const row = document.createElement('tr');
  const name = link(`${params.runs}${run.id}/`, run.name);
  if (run.evidence) { // as layouts/_partials/evidence/badge.html writes it
    const badge = document.createElement('span');
    badge.className = `evidence-badge evidence-${run.evidence}`;
    badge.textContent = EVIDENCE_BADGES[run.evidence];
    cell(row, name).append(' ', badge);
  } else cell(row, name);
  cell(row, run.date);
  cell(row, link(`${params.campaigns}${run.campaign}/`, campaigns[run.campaign] ?? run.campaign));
  cell(row, hosts[run.host] ?? run.host);
  cell(row, run.status, `status-${run.status}`);
  cell(row, `${formatNumber(run.headline.value)} ${run.headline.label}`.trim(), 'n');
  return row;
}

function makeList(index, names) {
  const pages = new Map(); // file number -> its fetch
  // Files are numbered from the oldest run, the index newest first (browse_split.file_of).
  const runs = index.runs.length;
  const pageOf = (position) => Math.floor((runs - 1 - position) / index.page_runs) + 1;
  const rowIn = (position) => position - Math.max(0, runs - pageOf(position) * index.page_runs);
  let shown = ROWS;
  let drawing = 0; // a newer render makes an older one's late pages moot

  function page(number) {
    if (!pages.has(number)) pages.set(number, fetchJson(pageFiles[number - 1]));
    return pages.get(number);
  }

  async function render() {
    const mine = ++drawing;
    const filters = chosen();
    const matching = [];
    index.runs.forEach((run, position) => {
      if (filters.every(([name, value]) => offered(index, run, name).includes(value))) matching.push(position);
    });
    const drawn = matching.slice(0, shown);
    const needed = [...new Set(drawn.map(pageOf))];
    const loaded = new Map(await Promise.all(needed.map(async (number) => [number, await page(number)])));
    if (mine !== drawing) return;
    tbody.replaceChildren(...drawn.map((position) => {
      const run = loaded.get(pageOf(position)).runs[rowIn(position)];
      return rowOf(run, names);
    }));
    const listed = matching.length > drawn.length ? `; the first ${drawn.length} are listed` : '';
    count.textContent = `${matching.length} of ${index.runs.length} runs${listed}.`;
    more.hidden = matching.length <= drawn.length;
  }

  return {
    render,
    restart() { shown = ROWS; return render(); },
    more() { shown += ROWS; return render(); },
  };
}

function saveToUrl() {
  const query = new URLSearchParams(chosen()).toString();
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
}

function fail(error) {
  count.textContent = `The index could not be loaded (${error.message}).`;
  console.error(error);
}

async function main() {
  const index = await fetchJson(params.filters);
  const names = { campaign: index.campaigns, host: index.hosts };
  fillSelects(index, names);
  for (const [name, value] of new URLSearchParams(location.search)) {
    const select = form.elements[name];
    if (select instanceof HTMLSelectElement && [...select.options].some((o) => o.value === value)) select.value = value;
  }
  const list = makeList(index, names);
  form.addEventListener('change', () => { saveToUrl(); list.restart().catch(fail); });
  // "reset" fires before the form clears its fields.
  form.addEventListener('reset', () => setTimeout(() => { saveToUrl(); list.restart().catch(fail); }));
  more.addEventListener('click', () => list.more().catch(fail));
  await list.render();
  document.getElementById('browse-pagination')?.setAttribute('hidden', '');
  form.hidden = false;
}

main().catch(fail);
