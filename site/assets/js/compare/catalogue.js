// The compare index as the page downloads it (generator/pages/compare_split.py): the catalogue
// first, then the file of each campaign a view or the run picker needs, each fetched once.
// index() reassembles what is loaded into the single index's shape the other modules read:
// every campaign of the catalogue (its entry, with runs: [] until its file is here), and the runs, cells and
// environments of the loaded campaigns, in the catalogue's campaign order.
import { fetchJson } from '../dom.js';

export function openCatalogue(catalogue, campaignsBase) {
  const files = new Map(); // campaign id -> its file, once fetched
  const pending = new Map(); // campaign id -> the fetch under way
  const known = new Set(catalogue.campaigns.map((campaign) => campaign.id));
  const byId = new Map(catalogue.campaigns.map((campaign) => [campaign.id, campaign]));
  const index = { ...catalogue, campaigns: [], runs: [], cells: [], drift: { ...catalogue.drift, environments: [] } };

  function reassemble() {
    const environments = [];
    const keys = new Map();
    const position = (values) => {
      const key = JSON.stringify(values);
      if (!keys.has(key)) { keys.set(key, environments.length); environments.push(values); }
      return keys.get(key);
    };
    index.campaigns = catalogue.campaigns.map((entry) => ({ ...entry, runs: [], ...files.get(entry.id)?.campaign }));
    index.runs = [];
    index.cells = [];
    for (const { id } of catalogue.campaigns) {
      const file = files.get(id);
      if (!file) continue;
      index.runs.push(...file.runs.map((run) => ({ ...run, environment: position(file.environments[run.environment]) })));
      index.cells.push(...file.cells);
    }
    index.drift.environments = environments;
  }

  // The campaign a run id belongs to: the catalogue's exceptions, else the longest campaign id
  // it starts with followed by "." (compare_split.campaign_of_id).
  function campaignOf(runId) {
    if (runId in catalogue.elsewhere) return catalogue.elsewhere[runId];
    for (let at = runId.lastIndexOf('.'); at > 0; at = runId.lastIndexOf('.', at - 1)) {
      if (known.has(runId.slice(0, at))) return runId.slice(0, at);
    }
    return null;
  }

  async function load(ids) {
    const wanted = [...new Set(ids)].filter((id) => byId.has(id) && !files.has(id));
    await Promise.all(wanted.map((id) => {
      if (!pending.has(id)) {
        const url = `${campaignsBase}${encodeURIComponent(id)}.json?v=${byId.get(id).version}`;
        pending.set(id, fetchJson(url).then((file) => { files.set(id, file); pending.delete(id); }));
      }
      return pending.get(id);
    }));
    if (wanted.length) reassemble();
  }

  reassemble();
  return { index, campaignOf, load };
}

// What a run of a campaign may show in the picker, before its file is fetched: every word a
// run's text (compare.js runText) holds is in this text too, so a campaign it lacks can be skipped.
export function campaignText(entry) {
  return [entry.id, ...entry.variants, ...entry.passes.map((pass) => `#${pass}`), ...entry.workloads, ...entry.servers].join(' · ');
}
