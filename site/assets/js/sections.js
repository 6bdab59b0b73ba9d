// Campaign pages fold each workload into a <details>. A link to a section, or to anything
// inside one (#workload-…, a suite table's link to a test's curves), opens the sections around
// its target first, so the browser has something to scroll to.
function openTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  let opened = false;
  for (let details = target.closest('details'); details; details = details.parentElement.closest('details')) {
    opened ||= !details.open;
    details.open = true;
  }
  if (opened) target.scrollIntoView();
}

window.addEventListener('hashchange', openTarget);
// Following the link of the current hash again fires no hashchange: the reader may have
// folded the section since.
document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href^="#"]');
  if (link && link.hash === location.hash) openTarget();
});
openTarget();
