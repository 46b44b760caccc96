// A small SVG line or bar chart of an answer's series: {type, x, y: [columns]} names the
// columns of the rows to draw. Text goes in with textContent, like everywhere else.

import { formatNumber, h } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const DEFAULT_WIDTH = 640;
const MARGIN = { top: 14, right: 16, bottom: 44, left: 64 };
const X_LABEL_SPACE = 72; // pixels per x label, so that labels never overlap
const MAX_SERIES = 4;

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== null) el.textContent = text;
  return el;
}

function toNumber(value) {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const number = Number(value.replace(/,/g, ""));
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

// The columns named by the spec, as labels and numeric series; null when nothing to draw.
export function chartData(columns, rows, spec) {
  if (!spec || !Array.isArray(columns) || !Array.isArray(rows) || !rows.length) return null;
  const xIndex = columns.indexOf(spec.x);
  const yNames = [].concat(spec.y || []).filter((name) => name !== spec.x);
  const series = yNames
    .map((name) => ({ name, index: columns.indexOf(name) }))
    .filter((s) => s.index >= 0)
    .slice(0, MAX_SERIES)
    .map((s) => ({ name: s.name, values: rows.map((row) => toNumber(row[s.index])) }));
  if (xIndex < 0 || !series.length) return null;
  if (series.every((s) => s.values.every((v) => v === null))) return null;
  return {
    type: spec.type === "bar" ? "bar" : "line",
    x: spec.x,
    labels: rows.map((row) => (row[xIndex] === null ? "" : String(row[xIndex]))),
    series,
  };
}

// Round tick values (1, 2 or 5 times a power of ten) covering [low, high].
export function niceTicks(low, high, count = 4) {
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  if (!(step > 0) || !Number.isFinite(step)) return [low, high];
  const start = Math.floor(low / step) * step;
  const ticks = [];
  for (let i = 0; ; i += 1) {
    const value = Number((start + i * step).toPrecision(12));
    ticks.push(value);
    if (value >= high) return ticks;
  }
}

export function drawChart(figure, columns, rows, spec) {
  const data = chartData(columns, rows, spec);
  if (!data) return false;
  // Drawn at the width it is shown, so that its text stays readable on a phone.
  const shown = figure.parentElement?.clientWidth || DEFAULT_WIDTH;
  const WIDTH = Math.round(Math.min(760, Math.max(300, shown)));
  const HEIGHT = WIDTH < 480 ? 220 : 260;
  const values = data.series.flatMap((s) => s.values).filter((v) => v !== null);
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (low === high) high = low + 1;
  const ticks = niceTicks(low, high);
  low = ticks[0];
  high = ticks[ticks.length - 1];

  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (v) => MARGIN.top + plotHeight - ((v - low) / (high - low)) * plotHeight;
  const band = plotWidth / data.labels.length;
  const xCenter = (i) => MARGIN.left + band * (i + 0.5);
  const names = data.series.map((s) => s.name).join(", ");
  const description = `${data.type === "bar" ? "Bar" : "Line"} chart of ${names} by ${data.x}`;

  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": description,
    class: `chart-${data.type}`,
  });
  for (const tick of ticks) {
    root.append(
      svg("line", { class: "grid", x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(tick), y2: y(tick) }),
      svg("text", { x: MARGIN.left - 6, y: y(tick) + 4, "text-anchor": "end" },
        new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 }).format(tick)),
    );
  }
  root.append(svg("line", { class: "axis", x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(0), y2: y(0) }));
  const every = Math.ceil(data.labels.length / Math.max(1, Math.floor(plotWidth / X_LABEL_SPACE)));
  data.labels.forEach((label, i) => {
    if (i % every !== 0) return;
    const short = label.length > 12 ? `${label.slice(0, 11)}…` : label;
    root.append(svg("text", { x: xCenter(i), y: HEIGHT - MARGIN.bottom + 18, "text-anchor": "middle" }, short));
  });

  if (data.type === "bar") {
    const group = band * 0.8;
    const width = group / data.series.length;
    data.series.forEach((series, k) => {
      series.values.forEach((value, i) => {
        if (value === null) return;
        const bar = svg("rect", {
          class: `bar series-${k}`,
          x: xCenter(i) - group / 2 + k * width,
          y: Math.min(y(value), y(0)),
          width: Math.max(width - 1, 1),
          height: Math.max(Math.abs(y(value) - y(0)), 1),
        });
        bar.append(svg("title", {}, `${data.labels[i]}: ${series.name} ${formatNumber(value)}`));
        root.append(bar);
      });
    });
  } else {
    data.series.forEach((series, k) => {
      let path = "";
      let pen = "M";
      series.values.forEach((value, i) => {
        if (value === null) {
          pen = "M"; // a gap in the series breaks the line
          return;
        }
        path += `${pen}${xCenter(i).toFixed(1)},${y(value).toFixed(1)}`;
        pen = "L";
      });
      root.append(svg("path", { class: `line series-${k}`, d: path }));
      if (series.values.length <= 60) {
        series.values.forEach((value, i) => {
          if (value === null) return;
          const dot = svg("circle", { class: `series-${k}`, cx: xCenter(i), cy: y(value), r: 3 });
          dot.append(svg("title", {}, `${data.labels[i]}: ${series.name} ${formatNumber(value)}`));
          root.append(dot);
        });
      }
    });
  }

  const legend = h(
    "span",
    { class: "legend" },
    data.series.map((s, k) => h("span", {}, h("span", { class: `legend-swatch series-${k}` }), s.name)),
  );
  figure.replaceChildren(root, h("figcaption", {}, `${description}. `, legend));
  figure.classList.add("chart");
  figure.hidden = false;
  return true;
}
