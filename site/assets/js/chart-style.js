// The charts' two style rules, the same as generator/figures/style.py's for the static SVGs:
// - one hue per series group: traces sharing a legendgroup (a variant's passes, a role's rate
//   and its latency) take one colour and tell themselves apart by dash; any other trace gets a
//   hue of its own. A trace that names its colour keeps it.
// - log axes labelled with whole numbers at 1, 2, 5 * 10^n (or coarser, or finer, so that 5 to
//   10 ticks show), where Plotly would write 200 as a bare "2".

// The constants live in chart-style.json, which generator/figures/style.py reads too: one
// palette, one dash order and one set of tick mantissas for both sides.
import style from './chart-style.json';

export const COLORWAY = style.colorway;
export const DASHES = style.dashes;
const MANTISSAS = style.log_mantissas;
const MIN_TICKS = style.log_ticks.min;
const MAX_TICKS = style.log_ticks.max;

// [hue index, dash index] per trace, in order.
export function groupSlots(traces) {
  const hues = new Map();
  const members = new Map();
  return traces.map((trace, index) => {
    const key = trace.legendgroup ?? `\u0000${index}`;
    if (!hues.has(key)) hues.set(key, hues.size);
    const member = members.get(key) ?? 0;
    members.set(key, member + 1);
    return [hues.get(key), member];
  });
}

export function styleGroups(data) {
  const slots = groupSlots(data);
  return data.map((trace, index) => {
    const [hue, member] = slots[index];
    const colour = COLORWAY[hue % COLORWAY.length];
    if (trace.type === 'bar') return { ...trace, marker: { color: colour, ...trace.marker } };
    return {
      ...trace,
      line: { color: colour, dash: DASHES[member % DASHES.length], ...trace.line },
      marker: { color: colour, ...trace.marker },
    };
  });
}

function roundTick(value) {
  return Number(value.toPrecision(12));
}

// Tick values m * 10^n within [low, high] (both > 0).
export function logTicks(low, high) {
  const first = Math.floor(Math.log10(low));
  const last = Math.ceil(Math.log10(high));
  const within = (mantissas) => {
    const ticks = [];
    for (let power = first; power <= last; power += 1) {
      for (const m of mantissas) {
        const tick = roundTick(m * 10 ** power);
        if (tick >= low && tick <= high) ticks.push(tick);
      }
    }
    return ticks;
  };
  const sets = MANTISSAS.map(within);
  const chosen = sets.find((ticks) => ticks.length >= MIN_TICKS) ?? sets[sets.length - 1];
  const every = Math.ceil(chosen.length / MAX_TICKS);
  return chosen.filter((_, index) => index % every === 0);
}

export function tickLabel(value) {
  return value.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

// Gives every log axis of layout that has no tick values of its own readable ones, from the
// positive values the traces draw on it.
export function readableAxes(data, layout) {
  for (const [key, axis] of Object.entries(layout)) {
    const match = /^([xy])axis(\d*)$/.exec(key);
    if (!match || axis?.type !== 'log' || axis.tickvals) continue;
    const [, letter, number] = match;
    const values = data
      .filter((trace) => (trace[`${letter}axis`] ?? letter) === `${letter}${number}`)
      .flatMap((trace) => trace[letter] ?? [])
      .filter((value) => Number.isFinite(value) && value > 0);
    if (!values.length) continue;
    const tickvals = logTicks(Math.min(...values), Math.max(...values));
    layout[key] = { ...axis, tickvals, ticktext: tickvals.map(tickLabel) };
  }
}
