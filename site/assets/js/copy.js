// A "Copy" button above every code block. The buttons are made here, so a page read without
// JavaScript shows none; each is a real <button> (Tab and Enter reach it) and says what
// happened through its own text, which screen readers announce (aria-live).
document.querySelectorAll('pre').forEach((pre) => {
  const bar = document.createElement('div');
  bar.className = 'code-copy';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-live', 'polite');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(pre.innerText.replace(/\n$/, ''));
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 2000);
  });
  bar.append(button);
  pre.before(bar);
});
