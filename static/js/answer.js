// One answer in the conversation: built while its events stream in, then settled from the
// stored message the `complete` event carries. The markup matches templates/chat/_message.html
// so answers rendered by the server and by this module look and behave the same.
//
// Only the server's sanitised `html` is ever set as HTML; every other field is text.

import { drawChart } from "./chart.js";
import { formatNumber, h, icon, safeHref } from "./dom.js";

const TOOL_LABELS = {
  route_question: "Choosing where to look",
  plan_step: "Planning",
  validate_result: "Checking the result",
  sql_agent: "Querying the business database",
  document_search: "Searching the documents",
  entity_query: "Looking up people and names",
  knowledge_graph: "Querying the knowledge graph",
  graph_schema: "Reading the graph's schema",
  calculator: "Calculating",
  upload_document: "Adding the upload",
};

// What became of a question (chat.models.Outcome) and what that means, as
// templates/chat/_outcome.html says it. An ordinary answer ("answered") shows no badge.
export const OUTCOMES = {
  partial: ["Partly answered", "Only part of the question could be answered"],
  not_found: ["Not found", "The documents and database do not answer this"],
  declined: ["Declined", "This could not be answered as asked; the answer says why"],
  clarify: ["Needs clarification", "The question needs more detail before it can be answered"],
};

const dataByAnswer = new WeakMap();

// Columns, rows and chart of an answer: kept when streamed, or read from the JSON the server
// rendered beside a stored answer.
export function answerData(article) {
  if (dataByAnswer.has(article)) return dataByAnswer.get(article);
  const script = document.getElementById(`answer-data-${article.dataset.messageId}`);
  if (!script) return null;
  try {
    const data = JSON.parse(script.textContent);
    dataByAnswer.set(article, data);
    return data;
  } catch {
    return null;
  }
}

// Draws the chart of a server-rendered answer.
export function hydrate(article) {
  const data = answerData(article);
  const figure = article.querySelector("figure.chart");
  if (data && figure) drawChart(figure, data.columns, data.rows, data.chart);
}

function isNumeric(value) {
  return typeof value === "number" && Number.isFinite(value);
}

function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// The table part of an answer: SQL, rows, CSV button and chart (see _table.html).
export function tableSection(table) {
  const columns = (table.columns || []).map(String);
  const rows = (table.rows || []).filter(Array.isArray);
  const rowCount = Number(table.row_count ?? rows.length) || rows.length;
  const section = h("section", { class: "answer-section answer-table", "aria-label": "Result" });
  if (table.sql) {
    section.append(h("details", { class: "sql" }, h("summary", {}, "SQL"), h("pre", {}, h("code", {}, table.sql))));
  }
  if (!columns.length) return section;
  // A column whose every value is a number is aligned right, header included.
  const numeric = columns.map((_, i) => rows.length > 0
    && rows.every((row) => row[i] === null || row[i] === undefined || isNumeric(row[i])));
  const caption = `${rowCount} row${rowCount === 1 ? "" : "s"}${table.truncated ? `, the first ${rows.length} shown` : ""}`;
  section.append(
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Result rows" },
      h("table", { class: "rows" },
        h("caption", {}, caption),
        h("thead", {}, h("tr", {}, columns.map((c, i) => h("th", { scope: "col", class: numeric[i] ? "num" : null }, c)))),
        h("tbody", {}, rows.map((row) => h("tr", {},
          row.map((v) => h("td", { class: isNumeric(v) ? "num" : null }, cellText(v)))))),
      ),
    ),
    h("div", { class: "table-actions" },
      h("button", { type: "button", class: "small", dataset: { action: "csv" } }, "Download CSV")),
  );
  const figure = h("figure", { class: "chart", hidden: true });
  section.append(figure);
  drawChart(figure, columns, rows, table.chart);
  return section;
}

// As _pages.html writes it.
function pagesLabel(page, pageEnd) {
  return pageEnd && pageEnd !== page ? `pages ${page}–${pageEnd}` : `page ${page}`;
}

export function sourcesSection(sources) {
  return h("section", { class: "answer-section sources", "aria-label": "Sources" },
    h("h3", {}, "Sources"),
    h("ol", {}, sources.map((s, i) => {
      const href = safeHref(s.url);
      const name = s.file_name || "document";
      return h("li", { class: "source" },
        h("div", { class: "source-head" },
          h("span", { class: "source-n" }, `[${s.n ?? i + 1}]`),
          href ? h("a", { href, target: "_blank", rel: "noopener" }, name) : h("span", {}, name),
          s.section_path ? h("span", { class: "section-path" }, s.section_path) : null,
          s.page ? h("span", { class: "pages" }, pagesLabel(s.page, s.page_end)) : null,
          typeof s.score === "number"
            ? h("span", { class: "score", title: "Relevance score" }, `score ${s.score.toFixed(3)}`)
            : null,
        ),
        s.snippet ? h("blockquote", {}, s.snippet) : null,
      );
    })),
  );
}

export function followUpsGroup(questions) {
  return h("div", { class: "follow-ups", role: "group", "aria-label": "Suggested follow-up questions" },
    questions.map((q) => h("button", { type: "button", dataset: { action: "follow-up" } }, q)));
}

// The badge of an outcome (see _outcome_badge.html), or null for one that shows none.
export function outcomeBadge(outcome) {
  if (!Object.hasOwn(OUTCOMES, outcome)) return null;
  const [label, meaning] = OUTCOMES[outcome];
  return h("span", {
    class: `outcome-badge outcome-${outcome}`, role: "note", title: meaning, "aria-label": `${label}: ${meaning}`,
  }, label);
}

function shares(sources) {
  const total = sources.reduce((sum, s) => sum + Math.max(Number(s.score) || 0, 0), 0);
  return sources.map((s) => (total ? (100 * Math.max(Number(s.score) || 0, 0)) / total : 0));
}

// The trace view: route and reasons, steps with timings, retrieved chunks and their share of
// the summed scores, the SQL's join path, and the run's figures (see _trace.html).
export function traceDetails({ route, routeLabel, decision, steps, sources, joinPath, stats }) {
  const details = h("details", { class: "trace" }, h("summary", {}, "Trace"));
  if (decision) {
    const confidence = typeof decision.confidence === "number"
      ? ` confidence ${Math.round(decision.confidence * 100)}%` : "";
    details.append(
      h("h4", {}, "Route"),
      h("p", {}, route ? h("span", { class: `route-badge route-${route}` }, routeLabel) : null,
        confidence, decision.mode ? ` · ${decision.mode}` : ""),
    );
    if (decision.reasons?.length) {
      details.append(h("ul", { class: "reasons" }, decision.reasons.map((r) => h("li", {}, String(r)))));
    }
  }
  if (steps?.length) {
    details.append(h("h4", {}, "Steps"), h("table", { class: "steps" },
      h("thead", {}, h("tr", {}, ["Step", "Tool", "ms", "Result"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, steps.map((step) => h("tr", {},
        h("td", {}, String(step.node ?? "")),
        h("td", {}, String(step.tool ?? "")),
        h("td", { class: "num" }, step.ms == null ? "" : formatNumber(step.ms, 0)),
        h("td", { class: step.ok === false ? "failed" : null }, step.ok === false ? "failed" : "ok"),
      ))),
    ));
  }
  if (sources?.length) {
    const share = shares(sources);
    details.append(h("h4", {}, "Retrieved chunks"), h("table", { class: "chunks" },
      h("thead", {}, h("tr", {}, ["Chunk", "Score", "Share"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, sources.map((s, i) => {
        const bar = h("span", { class: "share" });
        bar.style.width = `${Math.round(share[i])}px`;
        return h("tr", {},
          h("td", {}, `${s.file_name ?? ""}${s.section_path ? ` · ${s.section_path}` : ""}`),
          h("td", { class: "num" }, typeof s.score === "number" ? s.score.toFixed(3) : ""),
          h("td", {}, bar, `${share[i].toFixed(1)}%`));
      })),
    ));
  }
  if (joinPath?.length) {
    details.append(h("h4", {}, "Join path"),
      h("ol", { class: "join-path" }, joinPath.map((j) => h("li", {}, h("code", {}, String(j))))));
  }
  if (stats && stats.latency_ms != null) {
    const parts = [`${formatNumber(stats.latency_ms, 0)} ms in all`];
    if (stats.first_token_ms != null) parts.push(`first token at ${formatNumber(stats.first_token_ms, 0)} ms`);
    if (stats.steps) parts.push(`${stats.steps} steps`);
    details.append(h("p", { class: "muted" }, parts.join(" · ")));
  }
  return details.childElementCount > 1 ? details : null;
}

function actionsFooter() {
  const rate = (rating, label, glyph) => h("button", {
    type: "button", class: "small", "aria-pressed": "false", "aria-label": label, title: label,
    dataset: { action: "feedback", rating },
  }, icon(glyph));
  return h("footer", { class: "message-actions" },
    h("span", { class: "feedback", role: "group", "aria-label": "Rate this answer" },
      rate("up", "Helpful", "up"), rate("down", "Not helpful", "down")),
    h("button", { type: "button", class: "small", dataset: { action: "regenerate" } }, "Regenerate"),
    h("button", { type: "button", class: "small", dataset: { action: "stop" } }, "Stop"),
  );
}

export class AnswerView {
  constructor(routeLabels) {
    this.labels = routeLabels;
    this.text = "";
    this.route = "";
    this.decision = null;
    this.steps = [];
    this.sources = [];
    this.table = null;
    this.statusLine = h("span", { class: "status-line" }, "Working…");
    this.meta = h("header", { class: "message-meta" }, this.statusLine);
    this.body = h("div", { class: "answer-body streaming" });
    // Parts arrive in any order; each has its place so the answer reads the same every time.
    this.slots = {};
    for (const name of ["notice", "table", "sources", "followUps"]) {
      this.slots[name] = h("div", { class: "slot" });
    }
    this.footer = actionsFooter();
    this.traceSlot = h("div", { class: "slot" });
    this.el = h("article", { class: "message assistant", "aria-label": "Answer", "aria-busy": "true" },
      this.meta, this.body, this.slots.notice, this.slots.table, this.slots.sources,
      this.slots.followUps, this.footer, this.traceSlot);
  }

  get finished() {
    return this.el.getAttribute("aria-busy") !== "true";
  }

  status(text) {
    this.statusLine.textContent = text;
  }

  setRoute(route, decision = null) {
    this.route = route || "";
    if (decision) this.decision = decision;
    this.meta.querySelector(".route-badge")?.remove();
    if (!this.route) return;
    this.meta.prepend(h("span", { class: `route-badge route-${this.route}`, title: "Route taken" },
      this.labels[this.route] || this.route));
  }

  // The outcome's badge goes after the route's; the body's class marks an answer that is none.
  setOutcome(outcome) {
    const value = outcome === "answered" || Object.hasOwn(OUTCOMES, outcome) ? outcome : "";
    this.meta.querySelector(".outcome-badge")?.remove();
    this.body.classList.remove(...[...this.body.classList].filter((c) => c.startsWith("outcome-")));
    delete this.el.dataset.outcome;
    if (!value) return;
    this.el.dataset.outcome = value;
    this.body.classList.add(`outcome-${value}`);
    const badge = outcomeBadge(value);
    if (!badge) return;
    const route = this.meta.querySelector(".route-badge");
    if (route) route.after(badge);
    else this.meta.prepend(badge);
  }

  toolStarted(event) {
    this.steps.push({ node: event.node, tool: event.tool, ms: null, ok: null });
    const tool = String(event.tool || "");
    const label = TOOL_LABELS[tool] || (tool.startsWith("write_") ? "Writing the answer" : "Working");
    this.status(`${label}…`);
  }

  toolEnded(event) {
    const step = [...this.steps].reverse().find((s) => s.tool === event.tool && s.ms === null);
    if (step) Object.assign(step, { ms: event.ms, ok: event.ok });
    if (event.ok === false && event.error) this.status(`${event.tool}: ${event.error}`);
  }

  appendToken(content) {
    if (!this.text) this.status("");
    this.text += content;
    this.body.append(document.createTextNode(content)); // text, never markup
  }

  setSources(sources) {
    this.sources = Array.isArray(sources) ? sources : [];
    this.slots.sources.replaceChildren(this.sources.length ? sourcesSection(this.sources) : "");
  }

  setTable(table) {
    this.table = table;
    dataByAnswer.set(this.el, { columns: table.columns || [], rows: table.rows || [], chart: table.chart });
    this.slots.table.replaceChildren(tableSection(table));
  }

  notice(kind, text) {
    this.slots.notice.replaceChildren(h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : null }, text));
  }

  settle(state, label) {
    this.body.classList.remove("streaming");
    this.status("");
    this.el.dataset.status = state;
    if (label) {
      this.meta.querySelector(".message-state")?.remove();
      this.meta.append(h("span", { class: `message-state${state === "error" ? " error" : ""}` }, label));
    }
    this.el.setAttribute("aria-busy", "false");
  }

  // "Based on verified query #N", and for those who may confirm SQL, "This is right".
  showVerified(data) {
    const page = document.getElementById("chat")?.dataset || {};
    this.el.querySelector(".notice.verified")?.remove();
    if (data.verified) {
      const v = data.verified;
      const name = `verified query #${v.id}`;
      this.body.after(h("p", { class: "notice verified" }, "Based on ",
        page.staff ? h("a", { href: v.url }, name) : name, `: “${v.question}”`));
    }
    if (data.logical_sql && page.canVerify && !this.footer.querySelector('[data-action="verify"]')) {
      this.footer.querySelector('[data-action="regenerate"]').before(h("button", {
        type: "button", class: "small", title: "Answer this question and its rewordings with this SQL from now on",
        dataset: { action: "verify", sql: data.logical_sql },
      }, "This is right"));
    }
  }

  // The stored answer replaces what streamed: its sanitised HTML, its parts and its trace.
  complete(event) {
    const message = event.message || {};
    const answer = event.answer || {};
    const data = message.data || answer.data || {};
    if (message.id !== undefined) this.el.dataset.messageId = message.id;
    if (typeof message.html === "string") this.body.innerHTML = message.html;
    else this.body.textContent = answer.content ?? this.text;
    this.setRoute(message.route || answer.route || this.route);
    this.setOutcome(event.outcome || message.outcome || answer.outcome);
    const decision = data.route_decision || this.decision;
    const sources = Array.isArray(message.sources) ? message.sources : this.sources;
    this.setSources(sources);
    let table = data.columns || data.sql ? data : data.table || this.table;
    if (table && !table.chart && this.table?.chart) table = { ...table, chart: this.table.chart };
    if (table) this.setTable(table);
    this.showVerified(data);
    const followUps = data.follow_ups || answer.follow_ups || [];
    this.slots.followUps.replaceChildren(followUps.length ? followUpsGroup(followUps) : "");
    const stats = event.stats || data.stats || {};
    if (stats.latency_ms != null) {
      this.footer.append(h("span", { class: "stats" },
        `${Math.round(stats.latency_ms)} ms${stats.tokens ? ` · ${stats.tokens} token${stats.tokens === 1 ? "" : "s"}` : ""}`));
    }
    const trace = traceDetails({
      route: this.route,
      routeLabel: this.labels[this.route] || this.route,
      decision,
      steps: event.trace || data.trace || this.steps,
      sources,
      joinPath: (table && table.join_path) || data.join_path,
      stats,
    });
    this.traceSlot.replaceChildren(trace || "");
    this.settle("complete");
  }

  fail(message) {
    this.notice("error", message || "Something went wrong; nothing was lost.");
    this.settle("error", "Failed");
  }

  cancelled() {
    this.notice("warn", "Stopped before the answer was complete.");
    this.settle("cancelled", "Stopped");
  }
}
