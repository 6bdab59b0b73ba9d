// Environment drift among the runs on screen: the fields of generator/analysis/drift.py on which they
// differ (index.drift: the field labels, the distinct environments; run.environment points into
// them), worded as the campaign pages' banner (layouts/_partials/disclosure/campaign.html).
import { element } from '../dom.js';

// [{what, values: [{value, runs}]}]: per differing field, each value (in order of first
// appearance) and how many of the runs had it.
export function environmentDrift(index, runs) {
  const { fields, environments } = index.drift;
  return fields.flatMap((what, field) => {
    const counts = new Map();
    for (const run of runs) {
      const value = environments[run.environment][field];
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return counts.size > 1 ? [{ what, values: [...counts].map(([value, count]) => ({ value, runs: count })) }] : [];
  });
}

// The banner's elements: none when the runs agree.
export function driftBanner(drift) {
  if (!drift.length) return [];
  const banner = element('div', { class: 'banner banner-drift', role: 'note' });
  const list = element('ul');
  for (const { what, values } of drift) {
    const item = element('li', {}, `${what}: `);
    values.forEach(({ value, runs }, i) => {
      item.append(i ? '; ' : '', element('code', {}, value), ` (${runs} run${runs > 1 ? 's' : ''})`);
    });
    list.append(item);
  }
  // The host field (generator/analysis/drift.py HOST_FIELD): different hosts are different machines.
  const hosts = drift.find(({ what }) => what === 'host');
  if (hosts) {
    banner.append(element('strong', {}, `The compared runs come from ${hosts.values.length} different machines`), ", so a difference between them may be the machine's rather than the configuration's:", list);
  } else {
    banner.append(element('strong', {}, 'The compared runs differ in their environment'), ', so part of any difference may come from it:', list);
  }
  return [banner];
}
