// The site's one way to draw a Plotly chart: plotly.js fetched once per page, on first use, and
// every figure given the same look (colours, fonts, grid) read from the page's CSS variables.
import { pageColours } from './theme.js';

// Okabe-Ito: a colour-blind-safe palette; matches the marker colours in site.css.
export const COLORWAY = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const CONFIG = { responsive: true, displaylogo: false, toImageButtonOptions: { format: 'svg' } };

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

function sharedLayout() {
  const { fg, grid } = pageColours();
  const axis = { gridcolor: grid, linecolor: grid, zerolinecolor: grid, automargin: true };
  return {
    colorway: COLORWAY,
    font: { family: 'system-ui, sans-serif', size: 13, color: fg },
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    margin: { t: 20, r: 20, b: 50, l: 60 },
    legend: { orientation: 'h', y: -0.2 },
    hovermode: 'x unified',
    xaxis: axis,
    yaxis: axis,
  };
}

// Draws data + layout (a generated figure's, or one built in the page) in el with the shared
// look; filename names the SVG the modebar saves.
export async function plot(plotlySrc, el, data, layout, filename) {
  const Plotly = await loadPlotly(plotlySrc);
  const shared = sharedLayout();
  const merged = { ...shared, ...layout };
  merged.xaxis = { ...shared.xaxis, ...layout.xaxis };
  merged.yaxis = { ...shared.yaxis, ...layout.yaxis };
  delete merged.template;
  await Plotly.react(el, data, merged, {
    ...CONFIG,
    toImageButtonOptions: { ...CONFIG.toImageButtonOptions, filename },
  });
  return el;
}
