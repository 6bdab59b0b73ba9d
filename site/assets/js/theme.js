// Light, dark or the system's choice: CSS picks each colour with light-dark() under the
// root's color-scheme, so the only state here is a data-theme override kept in localStorage.
// Plotly charts cannot read CSS, so they are given the resolved colours and relaid on a change.

const STORAGE_KEY = 'theme';
const CHOICES = ['auto', 'dark', 'light'];
const LABELS = { auto: 'Theme: system', dark: 'Theme: dark', light: 'Theme: light' };

function stored() {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? 'auto';
  } catch {
    return 'auto'; // storage blocked (privacy settings, file://): follow the system
  }
}

function apply(choice) {
  if (choice === 'auto') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.dataset.theme = choice;
}

// A custom property holding light-dark() is not a colour until an element uses it.
function resolve(property) {
  const probe = document.createElement('span');
  probe.style.color = `var(${property})`;
  document.documentElement.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

// The colours charts take from the page: text and grid lines.
export function pageColours() {
  return { fg: resolve('--fg'), grid: resolve('--chart-grid') };
}

// The same colours as layout keys, the way Plotly.relayout takes them.
function relayoutColours() {
  const { fg, grid } = pageColours();
  const colours = { 'font.color': fg };
  for (const axis of ['xaxis', 'yaxis']) {
    for (const key of ['gridcolor', 'linecolor', 'zerolinecolor']) colours[`${axis}.${key}`] = grid;
  }
  return colours;
}

function recolourCharts() {
  if (!window.Plotly) return;
  const colours = relayoutColours();
  for (const chart of document.querySelectorAll('.js-plotly-plot')) window.Plotly.relayout(chart, colours);
}

function setUpToggle() {
  const button = document.getElementById('theme-toggle');
  if (!button) return;
  const show = (choice) => { button.textContent = LABELS[choice]; };
  show(stored());
  button.hidden = false;
  button.addEventListener('click', () => {
    const next = CHOICES[(CHOICES.indexOf(stored()) + 1) % CHOICES.length];
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // The choice then lasts for this page only.
    }
    apply(next);
    show(next);
    recolourCharts();
  });
}

// Runs in <head>, before the first paint, so a stored choice never flashes the other theme.
export function initTheme() {
  apply(stored());
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', recolourCharts);
  document.addEventListener('DOMContentLoaded', setUpToggle);
}
