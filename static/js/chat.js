// The chat page: the composer, the socket that streams answers, and the actions on answers
// (feedback, follow-ups, CSV, stop, regenerate). Plain ES modules, no build step.

import { AnswerView, answerData, hydrate } from "./answer.js";
import { downloadCsv } from "./csv.js";
import { api, h, newId } from "./dom.js";
import { SessionList } from "./sessions.js";
import { ChatSocket } from "./socket.js";
import { Uploads } from "./uploads.js";

const root = document.getElementById("chat");
const config = root.dataset;
const routeLabels = JSON.parse(document.getElementById("route-labels").textContent);
const list = document.getElementById("message-list");
const scroller = document.getElementById("messages");
const form = document.getElementById("composer");
const textarea = document.getElementById("question");
const errorBox = document.getElementById("composer-error");
const connection = document.getElementById("connection");
const maxChars = Number(config.maxChars) || 4000;
const DRAFT_PREFIX = "switchboard-draft:";
const OPEN_WAIT_MS = 5000;

let sessionId = config.sessionId || null;
const runs = new Map(); // request_id -> {view, content, accepted, userEl, sessionId}

// URLs come from the page (Django's reverse) with a placeholder id to fill in.
const ZERO_UUID = "00000000-0000-0000-0000-000000000000";
const conversationUrl = (id) => config.conversationUrl.replace(ZERO_UUID, id);
const sessionUrl = (id) => config.sessionUrl.replace(ZERO_UUID, id);
const feedbackUrl = (id) => config.feedbackUrl.replace("/0/", `/${encodeURIComponent(id)}/`);
const verifyUrl = (id) => config.verifyUrl.replace("/0/", `/${encodeURIComponent(id)}/`);

// --- Drafts: what is typed survives a reload, a failure or a dropped connection -----------
const draftKey = () => DRAFT_PREFIX + (sessionId || "new");
function saveDraft() {
  try {
    if (textarea.value) localStorage.setItem(draftKey(), textarea.value);
    else localStorage.removeItem(draftKey());
  } catch {
    // Storage disabled: the text is still in the box.
  }
}
function clearDraft(id) {
  try {
    localStorage.removeItem(DRAFT_PREFIX + (id || "new"));
  } catch {
    // nothing kept, nothing to clear
  }
}
function restoreDraft() {
  try {
    const draft = localStorage.getItem(draftKey());
    if (draft && !textarea.value) textarea.value = draft;
  } catch {
    // nothing to restore
  }
}

// --- Composer ------------------------------------------------------------------------------
function autosize() {
  textarea.style.height = "auto";
  textarea.style.height = `${textarea.scrollHeight + 2}px`;
}

function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = !text;
}

// Puts a question that did not go through back where it was typed.
function restoreQuestion(content) {
  if (!textarea.value.trim()) {
    textarea.value = content;
  } else if (!textarea.value.includes(content)) {
    textarea.value = `${content}\n${textarea.value}`;
  }
  autosize();
  saveDraft();
  textarea.focus();
}

const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
function follow(update) {
  const stick = nearBottom();
  update();
  if (stick) scroller.scrollTop = scroller.scrollHeight;
}

function userBubble(content) {
  const body = h("div", { class: "answer-body" });
  content.split(/\n{2,}/).forEach((paragraph) => {
    const p = h("p");
    paragraph.split("\n").forEach((line, i) => {
      if (i) p.append(h("br"));
      p.append(line);
    });
    body.append(p);
  });
  return h("article", { class: "message user pending", "aria-label": "Your question" }, body);
}

async function ensureSession(firstQuestion) {
  if (sessionId) return sessionId;
  const session = await api(config.sessionsUrl, { method: "POST", body: {} });
  sessionId = String(session.id);
  root.dataset.sessionId = sessionId;
  history.replaceState(null, "", conversationUrl(sessionId));
  sessions.add({ id: sessionId, title: firstQuestion.replace(/\s+/g, " ").trim().slice(0, 80) });
  // The draft of "a new conversation" now belongs to this one.
  clearDraft(null);
  saveDraft();
  return sessionId;
}

let starting = false; // a question between Enter and its send: a second Enter waits

async function ask(content, options) {
  if (starting) return;
  starting = true;
  try {
    await start(content, options);
  } finally {
    starting = false;
  }
}

async function start(content, { typed }) {
  showError("");
  if (!content.trim()) {
    textarea.focus();
    return;
  }
  if (content.length > maxChars) {
    showError(`Your question is ${content.length} characters long; the limit is ${maxChars}. Shorten it and send again.`);
    return;
  }
  if (!(await socket.whenOpen(OPEN_WAIT_MS))) {
    showError("Not connected to the server, so nothing was sent. Your question is still here; send it again once connected.");
    return;
  }
  let sid;
  const isNew = !sessionId;
  try {
    sid = await ensureSession(content);
  } catch (failure) {
    showError(`The conversation could not be created: ${failure.message}`);
    return;
  }
  if (typed) {
    textarea.value = "";
    autosize();
  }
  document.getElementById("empty-state")?.remove();
  const requestId = newId();
  const userEl = userBubble(content);
  const view = new AnswerView(routeLabels);
  follow(() => list.append(userEl, view.el));
  scroller.scrollTop = scroller.scrollHeight;
  runs.set(requestId, { view, content, typed, accepted: false, userEl, sessionId: sid, isNew });
  const message = { type: "ask", request_id: requestId, session_id: sid, content };
  if (!socket.send(message)) interrupt(requestId, "The connection dropped before the question was sent.");
}

async function regenerate() {
  showError("");
  if (!sessionId || !(await socket.whenOpen(OPEN_WAIT_MS))) {
    showError("Not connected to the server; try again in a moment.");
    return;
  }
  const requestId = newId();
  const view = new AnswerView(routeLabels);
  follow(() => list.append(view.el));
  runs.set(requestId, { view, content: "", typed: false, accepted: false, userEl: null, sessionId });
  if (!socket.send({ type: "regenerate", request_id: requestId, session_id: sessionId })) {
    interrupt(requestId, "The connection dropped before the question was sent.");
  }
}

function stop(article) {
  for (const [requestId, run] of runs) {
    if (run.view.el !== article) continue;
    run.view.status("Stopping…");
    if (!socket.send({ type: "cancel", request_id: requestId })) interrupt(requestId);
  }
}

// A run that can no longer finish: the question goes back in the box unless it was stored.
function interrupt(requestId, text = "The connection dropped, so this answer stopped. Regenerate to ask again.") {
  const run = runs.get(requestId);
  if (!run) return;
  runs.delete(requestId);
  run.view.fail(text);
  if (!run.accepted && run.userEl) {
    run.userEl.classList.add("failed");
    if (run.typed || !textarea.value.trim()) restoreQuestion(run.content);
  }
}

// The server titles a session from its first question; the list shows its exact words.
async function refreshTitle(id) {
  try {
    const session = await api(sessionUrl(id));
    const item = sessions.item(id);
    if (item && session?.title) sessions.setTitle(item, session.title);
  } catch {
    // The list keeps the title it shows.
  }
}

// --- Events from the socket ---------------------------------------------------------------
function onEvent(event) {
  if (event.event === "ingestion_progress") {
    uploads.progress(event);
    return;
  }
  const run = runs.get(event.request_id);
  if (!run) {
    if (event.event === "error" && !event.request_id) showError(event.message || "The server refused a message.");
    return; // another tab's question, or one already settled
  }
  const { view } = run;
  follow(() => {
    switch (event.event) {
      case "accepted":
        run.accepted = true;
        if (run.userEl) {
          run.userEl.classList.remove("pending");
          if (event.message?.id !== undefined) run.userEl.dataset.messageId = event.message.id;
          clearDraft(run.sessionId);
        }
        if (run.isNew) refreshTitle(run.sessionId);
        break;
      case "route_decision":
        view.setRoute(event.route, event);
        view.status("Working…");
        break;
      case "tool_start":
        view.toolStarted(event);
        break;
      case "tool_end":
        view.toolEnded(event);
        break;
      case "token":
        if ((event.channel || "final") === "final") view.appendToken(String(event.content ?? ""));
        break;
      case "sources":
        view.setSources(event.sources);
        break;
      case "table":
        view.setTable(event);
        break;
      case "complete":
        runs.delete(event.request_id);
        view.complete(event);
        break;
      case "error":
        runs.delete(event.request_id);
        view.fail(event.message);
        if (!run.accepted && run.userEl) {
          run.userEl.classList.add("failed");
          if (run.typed || !textarea.value.trim()) restoreQuestion(run.content);
        }
        break;
      case "cancelled":
        runs.delete(event.request_id);
        view.cancelled();
        break;
      default:
        break;
    }
  });
}

const STATES = {
  connecting: "Connecting…",
  open: "Connected",
  "signed-out": "Signed out: log in again to continue",
};
function onState(state, delay) {
  connection.dataset.state = state;
  connection.textContent = state === "closed"
    ? `Disconnected; retrying in ${Math.max(1, Math.round(delay / 1000))} s`
    : STATES[state];
  if (state === "signed-out") {
    connection.replaceChildren("Signed out · ", h("a", { href: `/accounts/login/?next=${encodeURIComponent(location.pathname)}` }, "log in again"));
  }
}

const socket = new ChatSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${config.socketPath}`, {
  onEvent,
  onState,
  onOpen: () => uploads.refresh(),
  onClosed: () => [...runs.keys()].forEach((id) => interrupt(id)),
  signedIn: async () => {
    try {
      const response = await fetch(config.sessionsUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      return response.status !== 401 && response.status !== 403;
    } catch {
      return true; // unreachable: keep trying
    }
  },
});

const sessions = new SessionList({
  layout: root,
  list: document.getElementById("session-list"),
  toggle: document.getElementById("sessions-toggle"),
  sessionUrl,
  conversationUrl,
  indexUrl: config.indexUrl,
  onError: showError,
});

const uploads = new Uploads({
  container: document.getElementById("uploads"),
  uploadUrl: config.uploadUrl,
  jobsUrl: config.jobsUrl,
});

// --- Actions on answers ---------------------------------------------------------------------
async function sendFeedback(button) {
  const article = button.closest("article");
  const group = button.closest(".feedback");
  const rating = button.dataset.rating;
  try {
    await api(feedbackUrl(article.dataset.messageId), { method: "POST", body: { rating } });
  } catch (failure) {
    article.querySelector(".feedback-error")?.remove();
    group.after(h("span", { class: "error feedback-error", role: "alert" }, `Not saved: ${failure.message}`));
    return;
  }
  article.querySelector(".feedback-error")?.remove();
  group.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
  if (rating === "down" && !article.querySelector(".feedback-comment")) {
    const input = h("input", { type: "text", maxlength: "4000", "aria-label": "What was wrong? (optional)", placeholder: "What was wrong? (optional)" });
    const commentForm = h("form", { class: "feedback-comment" }, input, h("button", { type: "submit", class: "small" }, "Send"));
    commentForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api(feedbackUrl(article.dataset.messageId), {
          method: "POST",
          body: { rating: "down", comment: input.value },
        });
        commentForm.replaceWith(h("p", { class: "muted", role: "status" }, "Thank you: your comment was saved."));
      } catch (failure) {
        commentForm.append(h("span", { class: "error", role: "alert" }, `Not saved: ${failure.message}`));
      }
    });
    button.closest(".message-actions").after(commentForm);
    input.focus();
  }
}

// "This is right": the SQL, edited if need be, becomes a verified query.
function openVerify(button) {
  const article = button.closest("article");
  if (article.querySelector(".verify-form")) return;
  const sql = h("textarea", { rows: "6", spellcheck: "false", "aria-label": "SQL to confirm" });
  sql.value = button.dataset.sql || "";
  const verifyForm = h("form", { class: "verify-form" },
    h("label", {}, "The SQL that answers this question (edit it if need be)"), sql,
    h("button", { type: "submit", class: "small" }, "Save as verified"));
  verifyForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    verifyForm.querySelector(".error")?.remove();
    try {
      const saved = await api(verifyUrl(article.dataset.messageId), { method: "POST", body: { sql: sql.value } });
      const name = `verified query #${saved.id}`;
      verifyForm.replaceWith(h("p", { class: "muted", role: "status" }, "Saved as ",
        config.staff ? h("a", { href: saved.url }, name) : name,
        ": this question and its rewordings are answered with this SQL from now on."));
      button.remove();
    } catch (failure) {
      verifyForm.append(h("p", { class: "error", role: "alert" }, failure.message));
    }
  });
  button.closest(".message-actions").after(verifyForm);
  sql.focus();
}

function csvFor(article) {
  const data = answerData(article);
  if (!data?.columns?.length) return;
  downloadCsv(`answer-${article.dataset.messageId || "rows"}.csv`, data.columns, data.rows || []);
}

list.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const article = button.closest("article");
  switch (button.dataset.action) {
    case "follow-up":
      ask(button.textContent, { typed: false });
      break;
    case "feedback":
      sendFeedback(button);
      break;
    case "verify":
      openVerify(button);
      break;
    case "csv":
      csvFor(article);
      break;
    case "stop":
      stop(article);
      break;
    case "regenerate":
      regenerate();
      break;
    default:
      break;
  }
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  ask(textarea.value, { typed: true });
});
textarea.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  } else if (event.key === "Escape") {
    const last = [...runs.values()].pop();
    if (last) stop(last.view.el);
  }
});
textarea.addEventListener("input", () => {
  autosize();
  saveDraft();
  if (textarea.value.length > maxChars) {
    showError(`${textarea.value.length} of ${maxChars} characters: shorten the question before sending.`);
  } else if (errorBox.textContent.includes(" of ") && errorBox.textContent.includes("characters")) {
    showError("");
  }
});

const fileInput = document.getElementById("upload-input");
document.getElementById("attach").addEventListener("click", () => fileInput.click());
fileInput.addEventListener("change", () => {
  const files = [...fileInput.files];
  if (files.length) uploads.start(files, document.getElementById("upload-collection").value);
  fileInput.value = "";
  textarea.focus();
});

// --- Start ----------------------------------------------------------------------------------
list.querySelectorAll("article.assistant[data-message-id]").forEach(hydrate);
restoreDraft();
autosize();
scroller.scrollTop = scroller.scrollHeight;
socket.connect();
