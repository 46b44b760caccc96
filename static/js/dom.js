// Building DOM without HTML strings: every text goes in as a text node, so nothing a
// document, a database row or a model wrote can become markup.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

// An icon from the page's sprite (templates/chat/index.html), hidden from screen readers:
// the button around it carries the words.
export function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", `#i-${name}`);
  svg.append(use);
  return svg;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// Links from events go only to this site's own pages ("/documents/..."): a source's URL
// is data, and "javascript:" or another host must never become a link.
export function safeHref(url) {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : null;
}

export function formatNumber(value, digits = 2) {
  return new Intl.NumberFormat(undefined, { maximumFractionDigits: digits }).format(value);
}

export function newId() {
  if (window.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.content || "";
}

// JSON over fetch with the session cookie and CSRF token; throws an Error whose message is
// the server's own words (DRF's detail or field errors) when the answer is not ok.
export async function api(url, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        "X-CSRFToken": csrfToken(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("The server could not be reached. Check the connection and try again.");
  }
  const payload = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(errorText(payload, response.status));
    error.status = response.status;
    throw error;
  }
  return payload;
}

export function errorText(payload, status) {
  if (payload && typeof payload === "object") {
    if (typeof payload.detail === "string") return payload.detail;
    const parts = Object.entries(payload).map(
      ([field, value]) => `${field}: ${[].concat(value).join(" ")}`,
    );
    if (parts.length) return parts.join("; ");
  }
  if (status === 401 || status === 403) return "You are signed out. Log in again.";
  if (status === 404) return "Not found: it may have been deleted.";
  return `The server answered ${status}. Nothing was lost; try again.`;
}
