// The site's one way to draw a Plotly chart: plotly.js fetched once per page, on first use,
// every figure given the same look (colours, fonts, grid) read from the page's CSS variables,
// and drawn with the one Plotly config the page carries (generator/figures/plotly_config.py:
// nothing that uploads, a modebar of download and reset only, kept out of the tab order).
import { readableAxes, styleGroups } from './chart-style.js';
import { pageColours } from './theme.js';

let config = null;

function plotlyConfig() {
  if (!config) {
    const holder = document.getElementById('plotly-config');
    if (!holder) throw new Error('the page carries no #plotly-config');
    config = JSON.parse(holder.textContent);
  }
  return config;
}

// The modebar's buttons are links Plotly redraws on every relayout (a theme change included);
// the figure's own links (CSV, JSON, SVG) already offer the same by keyboard.
function untabModebar(el) {
  for (const button of el.querySelectorAll('.modebar-btn')) button.setAttribute('tabindex', '-1');
}

// A role="img" element may hold nothing interactive, and Plotly's modebar holds buttons: once a
// chart is drawn, its container's label moves onto the drawing (the first .main-svg), and is kept
// in data-label for a redraw that makes a new one.
function labelDrawing(el) {
  const svg = el.querySelector('svg.main-svg');
  const label = el.getAttribute('aria-label') ?? el.dataset.label;
  if (!svg || !label) return;
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  el.dataset.label = label;
  el.removeAttribute('role');
  el.removeAttribute('aria-label');
}

let plotlyReady = null;

export function loadPlotly(src) {
  plotlyReady ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve(window.Plotly);
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(script);
  });
  return plotlyReady;
}

// Below this width (a phone's column) the chart gives the plot more room: smaller type and
// margins, so axis titles and tick labels fit, and a box as tall as the plot plus its legend,
// which wraps to about one entry per row there, instead of the wide drawing's aspect ratio.
const NARROW_PX = 600;
const NARROW_PLOT_PX = 260;
const LEGEND_ROW_PX = 20;

function legendEntries(data) {
  return data.filter((trace) => trace.showlegend !== false && trace.name).length;
}

function fitNarrowBox(el, data) {
  el.style.aspectRatio = 'auto';
  el.style.height = `${NARROW_PLOT_PX + LEGEND_ROW_PX * legendEntries(data)}px`;
}

// The legend sits under everything, x title included, at the bottom of the figure
// (yref: 'container'); Plotly grows the bottom margin to hold it, however many rows it wraps to.
function sharedLayout(narrow) {
  const { fg, grid } = pageColours();
  const axis = { gridcolor: grid, linecolor: grid, zerolinecolor: grid, automargin: true };
  return {
    font: { family: 'system-ui, sans-serif', size: narrow ? 11 : 13, color: fg },
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    margin: narrow ? { t: 10, r: 8, b: 30, l: 40 } : { t: 20, r: 20, b: 40, l: 60 },
    legend: { orientation: 'h', yref: 'container', y: 0, yanchor: 'bottom', x: 0, xanchor: 'left' },
    hovermode: 'x unified',
    xaxis: axis,
    yaxis: axis,
  };
}

// Draws data + layout (a generated figure's, or one built in the page) in el with the shared
// look; filename names the SVG the modebar saves.
export async function plot(plotlySrc, el, data, layout, filename) {
  const Plotly = await loadPlotly(plotlySrc);
  const base = plotlyConfig();
  const narrow = el.clientWidth < NARROW_PX;
  if (narrow) fitNarrowBox(el, data);
  const shared = sharedLayout(narrow);
  const merged = { ...shared, ...layout };
  merged.xaxis = { ...shared.xaxis, ...layout.xaxis };
  merged.yaxis = { ...shared.yaxis, ...layout.yaxis };
  delete merged.template;
  readableAxes(data, merged);
  await Plotly.react(el, styleGroups(data), merged, {
    ...base,
    toImageButtonOptions: { ...base.toImageButtonOptions, filename },
  });
  untabModebar(el);
  labelDrawing(el);
  if (!el.dataset.untabbed) {
    el.dataset.untabbed = 'on';
    el.on('plotly_afterplot', () => { untabModebar(el); labelDrawing(el); });
  }
  return el;
}
