// Draws every [data-plotly-src] placeholder when it nears the viewport. plotly.js (1.2 MB) is
// fetched once, on the first chart that nears it, so pages stay light until scrolled to. Until
// then the box shows the figure's static drawing (_partials/chart.html), which sizes the box
// and covers the chart while Plotly draws under it: the drawing goes once the chart is drawn,
// and stays, with a note under it, if drawing fails. Its alt text becomes the label of Plotly's
// drawing (plot.js), so a screen reader meets one image throughout.
import * as params from '@params';
import { fetchJson } from './dom.js';
import { attachDrilldown } from './drilldown.js';
import { loadPlotly, plot } from './plot.js';

const DRILLDOWN = { plotlySrc: params.plotly, runsBase: params.runs, families: params.families };

const VIEWPORT_MARGIN = '300px 0px';

async function draw(el) {
  // Both downloads at once: plotly.js is only fetched the first time.
  const [figure] = await Promise.all([fetchJson(el.dataset.plotlySrc), loadPlotly(params.plotly)]);
  const filename = el.dataset.plotlySrc.split('/').slice(-2).join('-').replace(/\.json$/, '');
  const drawing = el.querySelector(':scope > .chart-static');
  el.dataset.label = drawing.alt; // plot.js names Plotly's drawing with it
  await plot(params.plotly, el, figure.data, figure.layout, filename);
  drawing.remove();
  attachDrilldown(el, el.closest('figure') ?? el, DRILLDOWN);
}

// Beside the box, kept with the drawing it stands in for; read after it.
function reportFailure(el, error) {
  const note = document.createElement('p');
  note.className = 'chart-error';
  note.textContent = `Chart unavailable (${error.message}); see the data table below.`;
  el.after(note);
  console.error(error);
}

const observer = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      draw(entry.target).catch((error) => reportFailure(entry.target, error));
    }
  },
  { rootMargin: VIEWPORT_MARGIN },
);

document.querySelectorAll('[data-plotly-src]').forEach((el) => observer.observe(el));
