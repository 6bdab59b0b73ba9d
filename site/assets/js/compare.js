// The compare page (layouts/compare/section.html): reads the view from the URL, draws it from
// the generated index (the catalogue, and the files of the campaigns the view names:
// compare/catalogue.js), and writes every change back to the URL (replaceState), so the
// address bar always holds a link that restores the same view.
import * as params from '@params';
import { campaignText, openCatalogue } from './compare/catalogue.js';
import { configDiff, renderDiff } from './compare/config.js';
import { driftBanner, environmentDrift } from './compare/drift.js';
import { compareFigures } from './compare/figures.js';
import { profileSection } from './compare/profiles.js';
import { compactSelection, queryOf, readState } from './compare/state.js';
import { seriesOf, selectedRuns, threadLevels, valuesByThreads, workloadsOf } from './compare/selection.js';
import { heatmap, ratioTable, valuesTable } from './compare/tables.js';
import { fetchJson } from './dom.js';
import { attachDrilldown, fetchRun } from './drilldown.js';
import { plot } from './plot.js';

const LISTED_RUNS = 200; // the picker lists at most this many matches of the filter
const SEARCHED_CAMPAIGNS = 10; // the picker fetches the files of at most this many campaigns a filter may match
const DRILLDOWN = { plotlySrc: params.plotly, runsBase: params.runs, families: params.families };
const $ = (id) => document.getElementById(id);

function setOptions(select, entries, chosen) {
  select.replaceChildren(...entries.map(([value, text]) => new Option(text, value, false, value === chosen)));
}

function runText(run) {
  return `${run.campaign} · ${run.label} · ${run.workload} · ${run.server}`;
}

function filterWords() {
  return $('compare-filter').value.toLowerCase().split(/\s+/).filter(Boolean);
}

// The campaigns whose runs may match the picker's filter (none without one: the picker then
// lists the runs already loaded), and how many there are.
function searchedCampaigns(index) {
  const words = filterWords();
  if (!words.length || !$('compare-picker').open) return [[], 0];
  const matching = index.campaigns.filter((entry) => words.every((word) => campaignText(entry).toLowerCase().includes(word)));
  return [matching.slice(0, SEARCHED_CAMPAIGNS).map((entry) => entry.id), matching.length];
}

function renderPicker(index, state, selected) {
  const words = filterWords();
  const chosen = new Set(selected.map((run) => run.id));
  const matches = index.runs.filter((run) => words.every((word) => runText(run).toLowerCase().includes(word)));
  $('compare-run-list').replaceChildren(...matches.slice(0, LISTED_RUNS).map((run) => {
    const item = document.createElement('li');
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = run.id;
    box.checked = chosen.has(run.id);
    label.append(box, ` ${runText(run)}`);
    item.append(label);
    return item;
  }));
  $('compare-count').textContent = String(chosen.size);
}

function drawConfig(index, series, docs) {
  $('compare-config').replaceChildren(...renderDiff(configDiff(docs, series.map(({ label }) => label), index.config)));
  $('compare-mycnf-files').replaceChildren(...docs.flatMap((doc, i) => {
    const heading = document.createElement('h3');
    heading.textContent = series[i].label;
    const link = document.createElement('a');
    link.href = `${params.runs}${doc.id}/my.cnf`;
    link.textContent = 'Download my.cnf';
    const text = document.createElement('pre');
    text.textContent = doc.server.my_cnf;
    return [heading, link, text];
  }));
}

const shareFiles = new Map(); // run id -> its profile-shares.json, fetched once

// Where the server's time went (compare/profiles.js), at the thread level picked, for the
// series whose runs the index marks profiled; the section stays hidden when none is.
async function drawProfiles(series, base, current) {
  const profiled = series.flatMap(({ runs }) => runs).filter((run) => run.profiled);
  $('compare-profiles-section').hidden = !profiled.length;
  if (!profiled.length) return;
  for (const run of profiled) {
    if (!shareFiles.has(run.id)) shareFiles.set(run.id, fetchJson(`${params.runs}${run.id}/profile-shares.json`));
  }
  const files = await Promise.all(profiled.map((run) => shareFiles.get(run.id)));
  if (!current()) return;
  const shares = new Map(profiled.map((run, i) => [run.id, files[i]]));
  const levels = [...new Set(files.flatMap((file) => Object.keys(file.steps).map(Number)))].sort((a, b) => a - b);
  const select = $('compare-profile-threads');
  const chosen = levels.includes(Number(select.value)) ? Number(select.value) : levels[levels.length - 1];
  setOptions(select, levels.map((threads) => [String(threads), String(threads)]), String(chosen));
  $('compare-profiles').replaceChildren(...profileSection(series, base, chosen, shares, params.runs));
}

// How to read the ratio cells; every number and marker in it comes from the index.
function legend(index, base, metric) {
  const info = index.metrics[metric];
  const { noise, decimals, markers, interval } = index.ratio;
  const band = Math.round(noise * 100);
  const confidence = Math.round(interval.confidence * 100);
  return `Ratio = value ÷ ${base.label} at the same thread count, ${decimals} decimals, with its ${confidence} % confidence interval below `
    + '(Welch’s t on logarithms). A variant’s passes are merged as on its campaign page: its value is their median, '
    + 'and where both sides have two passes or more the interval comes from the passes. '
    + 'Otherwise it comes from the per-second samples after the warm-up cut (*), counted as effective samples because consecutive seconds are correlated; '
    + 'a step too short to estimate that correlation gets no interval. '
    + `${markers.better} better and ${markers.worse} worse mark a change beyond ±${band} % whose interval excludes 1 `
    + `(${info.higher_is_better ? 'higher' : 'lower'} is better for ${info.label.toLowerCase()}); only they are coloured, deeper with the size of the change. `
    + `${markers.noise} marks a change beyond ±${band} % that the noise cannot rule out, or that has no interval, and is not coloured. `
    + 'An interval from per-second samples rests on the conditions of single runs: '
    + 'it understates the noise between runs; repeated runs measure that. '
    + '— means the run has no step at that thread count; n/a that the base has none or zero.';
}

// The campaigns whose files a view needs: its campaign and those of the runs it names by id.
function neededCampaigns(store, state) {
  return [state.campaign, ...state.runs.map(store.campaignOf)].filter(Boolean);
}

async function makeView(store) {
  const { index } = store;
  let state = readState(window.location.search, index.metrics);
  await store.load(neededCampaigns(store, state));
  // Older links name every run by id: the same selection, written short.
  state = { ...state, ...compactSelection(index, selectedRuns(index, state).map((run) => run.id)) };
  let drawing = 0; // a newer render makes an older one's late results moot
  let redrawProfiles = async () => {}; // the last render's profiles, for their thread level

  async function render() {
    const mine = ++drawing;
    const selected = selectedRuns(index, state);
    renderPicker(index, state, selected);
    $('compare-campaign').value = state.campaign;
    if (!selected.length) {
      $('compare-view').hidden = true;
      $('compare-status').textContent = 'Pick a campaign, or runs under “Choose runs”.';
      return;
    }
    const workloads = workloadsOf(selected);
    if (!workloads.includes(state.workload)) state.workload = workloads[0];
    const series = seriesOf(index, selected, state.workload, !state.passes);
    if (!series.some(({ label }) => label === state.base)) state.base = series[0].label;
    // A metric none of the runs gives (TPS of a table published in QPS) would draw nothing.
    const given = Object.keys(index.metrics).filter((metric) => series.some(({ entry }) =>
      [...valuesByThreads(index, entry, metric).values()].some((value) => value != null)));
    if (given.length && !given.includes(state.metric)) state.metric = given[0];
    const base = series.find(({ label }) => label === state.base);
    history.replaceState(null, '', queryOf(state));
    $('compare-permalink').href = window.location.href;
    setOptions($('compare-workload'), workloads.map((name) => [name, name]), state.workload);
    setOptions($('compare-base'), series.map(({ label }) => [label, label]), state.base);
    $('compare-metric').value = state.metric;
    $('compare-scale').value = state.scale;
    $('compare-passes').checked = state.passes;
    const shown = series.flatMap(({ runs }) => runs);
    const merged = series.length < shown.length ? `, drawn as ${series.length} lines (passes merged)` : '';
    $('compare-status').textContent = `${selected.length} runs selected; ${shown.length} of them ran ${state.workload}${merged}.`;
    $('compare-view').hidden = false;

    const levels = threadLevels(index, series);
    const throughput = state.metric === 'qps' ? 'qps' : 'tps';
    $('compare-throughput-table').replaceChildren(valuesTable(index, series, [throughput]));
    $('compare-latency-table').replaceChildren(valuesTable(index, series, ['p95']));
    $('compare-latency-throughput-table').replaceChildren(valuesTable(index, series, [throughput, 'p95']));
    $('compare-ratios').replaceChildren(ratioTable(index, series, base, state.metric));
    $('compare-heatmap').replaceChildren(heatmap(index, series, base, state.metric));
    $('compare-legend').textContent = legend(index, base, state.metric);
    $('compare-drift').replaceChildren(...driftBanner(environmentDrift(index, shown)));

    for (const [id, data, layout] of compareFigures(index, series, levels, state.metric, state.scale)) {
      const el = $(id);
      await plot(params.plotly, el, data, layout, id);
      if (!el.dataset.drilldown) {
        el.dataset.drilldown = 'on';
        attachDrilldown(el, el.closest('figure'), DRILLDOWN);
      }
    }
    redrawProfiles = () => drawProfiles(series, base, () => mine === drawing);
    await redrawProfiles();
    const docs = await Promise.all(series.map(({ entry }) => fetchRun(params.runs, entry.id)));
    if (mine === drawing) drawConfig(index, series, docs);
  }

  function update(changes) {
    state = { ...state, ...changes };
    store.load(neededCampaigns(store, state)).then(render).catch(fail);
  }

  async function search() {
    const [ids, found] = searchedCampaigns(index);
    const note = found > ids.length ? `; ${found} campaigns match, the runs of the first ${ids.length} are listed: narrow the filter` : '';
    $('compare-search').textContent = filterWords().length
      ? `Searching ${found} campaign${found === 1 ? '' : 's'}${note}.`
      : `Type words of a campaign, variant, workload or server to list the runs of the ${index.campaigns.length} campaigns.`;
    await store.load(ids);
    renderPicker(index, state, selectedRuns(index, state));
  }

  $('compare-campaign').addEventListener('change', (event) => update({ campaign: event.target.value, variants: [], runs: [], workload: '', base: '' }));
  $('compare-workload').addEventListener('change', (event) => update({ workload: event.target.value }));
  $('compare-base').addEventListener('change', (event) => update({ base: event.target.value }));
  $('compare-metric').addEventListener('change', (event) => update({ metric: event.target.value }));
  $('compare-scale').addEventListener('change', (event) => update({ scale: event.target.value }));
  $('compare-passes').addEventListener('change', (event) => update({ passes: event.target.checked }));
  $('compare-profile-threads').addEventListener('change', () => redrawProfiles().catch(fail));
  $('compare-filter').addEventListener('input', () => search().catch(fail));
  $('compare-picker').addEventListener('toggle', () => search().catch(fail));
  // Ticking a run rewrites the selection in its shortest form: campaign, variants, passes, ids.
  $('compare-run-list').addEventListener('change', (event) => {
    const ids = new Set(selectedRuns(index, state).map((run) => run.id));
    if (event.target.checked) ids.add(event.target.value);
    else ids.delete(event.target.value);
    update(compactSelection(index, [...ids]));
  });
  $('compare-controls').addEventListener('submit', (event) => event.preventDefault());
  return render;
}

function fail(error) {
  $('compare-status').textContent = `The compare view failed: ${error.message}`;
  console.error(error);
}

async function main() {
  const store = openCatalogue(await fetchJson(params.catalogue), params.campaigns);
  const { index } = store;
  setOptions($('compare-campaign'), [['', '(pick runs below)'], ...index.campaigns.map((c) => [c.id, c.title])], '');
  setOptions($('compare-metric'), Object.entries(index.metrics).map(([name, info]) => [name, info.label]), '');
  await (await makeView(store))();
}

main().catch(fail);
