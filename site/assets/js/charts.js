// Draws every [data-plotly-src] placeholder when it nears the viewport. plotly.js (4.8 MB) is
// fetched once, on the first chart that becomes visible, so pages stay light until scrolled to.
import * as params from '@params';

const VIEWPORT_MARGIN = '300px 0px';
// Okabe-Ito: a colour-blind-safe palette; matches the marker colours in site.css.
const COLORWAY = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const CONFIG = { responsive: true, displaylogo: false, toImageButtonOptions: { format: 'svg' } };

let plotlyReady = null;

function loadPlotly() {
  plotlyReady ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = params.plotly;
    script.onload = () => resolve(window.Plotly);
    script.onerror = () => reject(new Error(`cannot load ${params.plotly}`));
    document.head.appendChild(script);
  });
  return plotlyReady;
}

function sharedLayout() {
  const css = getComputedStyle(document.documentElement);
  const fg = css.getPropertyValue('--fg').trim();
  const grid = css.getPropertyValue('--chart-grid').trim();
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

async function draw(el) {
  const [Plotly, figure] = await Promise.all([
    loadPlotly(),
    fetch(el.dataset.plotlySrc).then((response) => {
      if (!response.ok) throw new Error(`${el.dataset.plotlySrc}: HTTP ${response.status}`);
      return response.json();
    }),
  ]);
  const shared = sharedLayout();
  const layout = { ...shared, ...figure.layout };
  layout.xaxis = { ...shared.xaxis, ...figure.layout.xaxis };
  layout.yaxis = { ...shared.yaxis, ...figure.layout.yaxis };
  delete layout.template;
  const filename = el.dataset.plotlySrc.split('/').slice(-2).join('-').replace(/\.json$/, '');
  await Plotly.newPlot(el, figure.data, layout, {
    ...CONFIG,
    toImageButtonOptions: { ...CONFIG.toImageButtonOptions, filename },
  });
}

const observer = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      draw(entry.target).catch((error) => {
        entry.target.textContent = `Chart unavailable (${error.message}); see the data table below.`;
        console.error(error);
      });
    }
  },
  { rootMargin: VIEWPORT_MARGIN },
);

document.querySelectorAll('[data-plotly-src]').forEach((el) => observer.observe(el));
