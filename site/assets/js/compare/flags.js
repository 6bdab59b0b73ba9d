// Flagged passes, judged as generator/analysis/ratios.py judges them (see its docstring): a ratio
// judges on its unflagged passes when the variant and the base each keep at least half of theirs,
// and one; otherwise it is greyed ('flagged', never coloured) over all its passes and says why.
// The index (generator/pages/compare_index.py) carries each step's flag kinds as a bit mask, bit i
// for index.flags.kinds[i]: a run's one mask per step, a cell's the masks of its passes per
// level, and a cell's steps and summaries merged over its unflagged passes ("unflagged").

// ratios.keeps_enough
export function keepsEnough(passes, flagged) {
  const kept = passes - flagged;
  return kept >= 1 && 2 * kept >= passes;
}

// The masks of an entry's passes at its i-th step: a cell's (it has runs), or a run's one.
function masksAt(entry, i) {
  if (entry.runs) return entry.flags?.[i] ?? new Array(entry.passes[i]).fill(0);
  return [entry.flags?.[i] ?? 0];
}

// {passes, flagged, kinds: {kind: count}} of an entry at threads, as ratios.pass_flags counts.
export function passFlags(index, entry, threads) {
  const i = entry.steps.findIndex((step) => step[0] === threads);
  if (i < 0) return { passes: 0, flagged: 0, kinds: {} };
  const masks = masksAt(entry, i);
  const kinds = {};
  index.flags.kinds.forEach((kind, bit) => {
    const count = masks.filter((mask) => mask & (1 << bit)).length;
    if (count) kinds[kind] = count;
  });
  return { passes: masks.length, flagged: masks.filter(Boolean).length, kinds };
}

// What a side is judged on (ratios.judged_stats): 'all' without a flagged pass, 'unflagged'
// when enough remain, null when too few do.
export function judgedOn(counted) {
  if (!counted.flagged) return 'all';
  return keepsEnough(counted.passes, counted.flagged) ? 'unflagged' : null;
}

// The entry a side judged on its unflagged passes reads its steps and summaries from.
export function unflaggedEntry(entry) {
  return entry.unflagged ? { ...entry, ...entry.unflagged } : entry;
}

// Why a greyed cell is not judged (ratios.why_not_judged).
export function whyNotJudged(own, base) {
  const short = [['its', own], ["the base's", base]]
    .filter(([, counted]) => judgedOn(counted) === null)
    .map(([whose, counted]) => `${counted.flagged} of ${whose} ${counted.passes} passes flagged`);
  return `${short.join('; ')}, fewer than half unflagged`;
}

// "2 of 3 passes flagged: transient, steal (1)", as generator/pages/ratio_cells.py flag_words.
export function flagWords(index, counted) {
  if (!counted.passes) return '';
  const words = `${counted.flagged} of ${counted.passes} passes flagged`;
  return counted.flagged ? `${words}: ${flagKinds(index, counted)}` : words;
}

// "transient, steal (1)": each kind's label, with its count where not every flagged pass has it.
export function flagKinds(index, counted) {
  const { kinds, labels } = index.flags;
  return kinds.filter((kind) => counted.kinds[kind]).map((kind) => {
    const label = labels[kinds.indexOf(kind)];
    return counted.kinds[kind] === counted.flagged ? label : `${label} (${counted.kinds[kind]})`;
  }).join(', ');
}
