// The site's one number format, as generator/pages/numbers.py states it and
// layouts/_partials/helpers/num.html prints it: thousands separators; no decimals from 100 up or
// for a whole number, 1 from 10, 2 from 1, two significant digits below 1 (at most 6
// decimals); rounded as Hugo's lang.FormatNumber rounds (the number times 10^decimals to the
// nearest whole, ties away from zero); an em dash when absent.
const MAX_DECIMALS = 6;

export function decimals(value) {
  let size = Math.abs(value);
  if (Number.isInteger(value) || size >= 100) return 0;
  if (size >= 10) return 1;
  let places = 2;
  while (size < 0.1 && places < MAX_DECIMALS) {
    size *= 10;
    places += 1;
  }
  return places;
}

export function formatNumber(value) {
  if (value == null) return '—';
  const places = decimals(value);
  const scale = 10 ** places;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
  return rounded.toLocaleString('en-US', {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  });
}
