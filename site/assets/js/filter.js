// Filter box for long tables: hides rows whose text lacks every word typed (case-insensitive).
document.querySelectorAll('input[data-filter-target]').forEach((input) => {
  const rows = document.getElementById(input.dataset.filterTarget).tBodies[0].rows;
  input.addEventListener('input', () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const row of rows) {
      const text = row.textContent.toLowerCase();
      row.hidden = !words.every((word) => text.includes(word));
    }
  });
});
