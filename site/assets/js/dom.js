// Small DOM and fetch helpers shared by the site's scripts.

export function element(tag, attributes = {}, text = '') {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  if (text) el.textContent = text;
  return el;
}

// The parsed JSON at url; an HTTP error throws with the url and status.
export async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}
