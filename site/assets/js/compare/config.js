// Effective configuration diff of the runs on screen, by the rules generator/analysis/config_diff.py
// applies to campaign pages (the index carries them as data), rendered with the markup of
// layouts/_partials/config/diff.html.
import { element } from '../dom.js';

function variableOf(option, variables, prefixes) {
  let name = option;
  while (!(name in variables)) {
    const prefix = prefixes.find((candidate) => name.startsWith(candidate));
    if (!prefix) return null;
    name = name.slice(prefix.length);
  }
  return name;
}

function groupOf(name, values, rules) {
  if (rules.instance_variables.includes(name) || values.some((v) => v && v.startsWith(rules.path_prefix))) {
    return rules.instance_group;
  }
  const found = rules.groups.find(([, prefixes]) => prefixes.some((prefix) => name.startsWith(prefix)));
  return found ? found[0] : rules.other_group;
}

// name -> {value, cnf} for one run document (see generator/analysis/config_diff.py effective_config).
function effectiveConfig(doc, rules) {
  const variables = doc.server.variables ?? {}; // an imported run may record none
  const config = new Map(Object.entries(variables).map(([name, value]) => [name, { value, cnf: null }]));
  for (const [option, text] of Object.entries(doc.server.my_cnf_options ?? {})) {
    const name = variableOf(option, variables, rules.option_prefixes) ?? option;
    if (!config.has(name)) config.set(name, { value: null, cnf: null });
    config.get(name).cnf = `${option} = ${text}`;
  }
  return config;
}

const NO_CELL = { value: null, cnf: null };

function comparedValue(cell) {
  return JSON.stringify([cell.value, cell.value === null ? cell.cnf : null]);
}

export function configDiff(docs, labels, rules) {
  const configs = docs.map((doc) => effectiveConfig(doc, rules));
  // Code-point order, as Python's sorted().
  const names = [...new Set(configs.flatMap((config) => [...config.keys()]))].sort();
  const byGroup = new Map();
  for (const name of names) {
    const cells = configs.map((config) => config.get(name) ?? NO_CELL);
    if (new Set(cells.map(comparedValue)).size < 2) continue;
    const group = groupOf(name, cells.map((cell) => cell.value), rules);
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group).push({ name, cells });
  }
  const order = [...rules.groups.map(([title]) => title), rules.other_group, rules.instance_group];
  const groups = order
    .filter((title) => byGroup.has(title))
    .map((title) => ({ title, instance: title === rules.instance_group, rows: byGroup.get(title) }));
  return { labels, groups };
}

// Rows that differ by instance carry no source mark (see layouts/_partials/config/cell.html).
function cellOf(cell, instance) {
  if (instance && cell.value !== null) {
    const td = element('td');
    td.append(element('code', {}, cell.value));
    return td;
  }
  const src = (kind, title) => element('span', { class: `src src-${kind}`, ...(title ? { title } : {}) }, kind === 'cnf' ? 'my.cnf' : 'default');
  if (cell.value !== null) {
    const td = element('td', { class: cell.cnf ? 'cnf' : 'default' });
    td.append(element('code', {}, cell.value), ' ', cell.cnf ? src('cnf', cell.cnf) : src('default'));
    return td;
  }
  if (cell.cnf) {
    const td = element('td', { class: 'cnf' });
    td.append(element('code', {}, cell.cnf), ' ', src('cnf', 'an option that sets no server variable'));
    return td;
  }
  return element('td', { class: 'missing', title: 'no such variable on this server' }, '—');
}

// The table inside its scroll region, as config/diff.html writes it: wide on a phone.
function table(labels, groups) {
  const out = element('table', { class: 'configdiff' });
  const head = out.createTHead().insertRow();
  head.append(element('th', { scope: 'col' }, 'variable'));
  for (const label of labels) head.append(element('th', { scope: 'col' }, label));
  for (const group of groups) {
    const body = out.createTBody();
    if (!group.instance) {
      const title = body.insertRow();
      title.className = 'group';
      title.append(element('th', { scope: 'rowgroup', colspan: String(labels.length + 1) }, group.title));
    }
    for (const row of group.rows) {
      const tr = body.insertRow();
      const name = element('th', { scope: 'row' });
      name.append(element('code', {}, row.name));
      tr.append(name, ...row.cells.map((cell) => cellOf(cell, group.instance)));
    }
  }
  const region = element('div', { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-label': 'Configuration differences' });
  region.append(out);
  return region;
}

export function renderDiff(diff) {
  const shown = diff.groups.filter((group) => !group.instance);
  const parts = [shown.length ? table(diff.labels, shown) : element('p', {}, 'The runs ran with the same configuration.')];
  for (const group of diff.groups.filter((candidate) => candidate.instance)) {
    const details = element('details', { class: 'instance-config' });
    details.append(element('summary', {}, `${group.rows.length} values that differ by instance (${group.title})`));
    details.append(table(diff.labels, [group]));
    parts.push(details);
  }
  const legend = element('p', { class: 'legend' }, 'Values the server reported (SHOW GLOBAL VARIABLES) right after start. ');
  legend.append(
    element('span', { class: 'src src-cnf' }, 'my.cnf'),
    ' marks a value the my.cnf set (hover for its line), ',
    element('span', { class: 'src src-default' }, 'default'),
    ' one the server chose itself; — means the server has no such variable.'
      + ' Values that differ by instance carry no mark: the harness places each sandbox and the server derives the rest.',
  );
  parts.push(legend);
  return parts;
}
