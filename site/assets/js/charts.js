// Draws every [data-plotly-src] placeholder when it nears the viewport. plotly.js (1.2 MB) is
// fetched once, on the first chart that becomes visible, so pages stay light until scrolled to.
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
  await plot(params.plotly, el, figure.data, figure.layout, filename);
  attachDrilldown(el, el.closest('figure') ?? el, DRILLDOWN);
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
