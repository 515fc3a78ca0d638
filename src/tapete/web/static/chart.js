// The score chart: each seat's (or team's) running total after every deal, as an SVG line chart.

import { escapeHtml, isolated, personName } from "./lobby.js";

const COLORS = ["#d1495b", "#2e86ab", "#edae49", "#66a182", "#8d6cab", "#e07a5f", "#3d405b", "#81b29a"];
// Colour is not the only thing that tells the series apart (not everyone sees it): each also
// has its own dash pattern and its own marker shape, shown again in the legend.
const DASHES = ["", "7 3", "2 2.5", "9 3 2 3", "4 4", "12 3", "1.5 3.5", "9 2 2 2 2 2"];
const MARKERS = ["circle", "square", "triangle", "diamond", "down", "cross", "plus", "bar"];
// How far apart (in the chart's units) series whose whole lines are the same are drawn.
const NUDGE = 3.5;

// Series i's colour, dash pattern and marker shape: the same in every chart (the end-of-match
// scores, the review's expected scores), so a seat is drawn alike in both.
export function seriesStyle(i) {
  return { color: COLORS[i % COLORS.length], dash: DASHES[i % DASHES.length], marker: MARKERS[i % MARKERS.length] };
}

// One marker, centred at (cx, cy), of the shape of the series; `kind` is its class beside the
// shape (the review chart's own "mark"s are the costly decisions, which take a click).
export function marker(shape, cx, cy, color, kind = "mark") {
  const r = 2.8;
  const at = (pts) => pts.map(([dx, dy]) => `${(cx + dx).toFixed(1)},${(cy + dy).toFixed(1)}`).join(" ");
  const fill = `class="${kind} ${shape}" fill="${color}" stroke="${color}"`;
  switch (shape) {
    case "square":
      return `<rect x="${(cx - r).toFixed(1)}" y="${(cy - r).toFixed(1)}" width="${2 * r}" height="${2 * r}" ${fill}/>`;
    case "triangle":
      return `<polygon points="${at([[0, -r * 1.2], [r * 1.1, r * 0.8], [-r * 1.1, r * 0.8]])}" ${fill}/>`;
    case "down":
      return `<polygon points="${at([[0, r * 1.2], [r * 1.1, -r * 0.8], [-r * 1.1, -r * 0.8]])}" ${fill}/>`;
    case "diamond":
      return `<polygon points="${at([[0, -r * 1.3], [r * 1.3, 0], [0, r * 1.3], [-r * 1.3, 0]])}" ${fill}/>`;
    case "cross":
      return `<path d="M${at([[-r, -r]])}L${at([[r, r]])}M${at([[-r, r]])}L${at([[r, -r]])}" class="${kind} ${shape}" stroke="${color}" stroke-width="1.8"/>`;
    case "plus":
      return `<path d="M${at([[-r * 1.2, 0]])}L${at([[r * 1.2, 0]])}M${at([[0, -r * 1.2]])}L${at([[0, r * 1.2]])}" class="${kind} ${shape}" stroke="${color}" stroke-width="1.8"/>`;
    case "bar":
      return `<rect x="${(cx - r * 0.6).toFixed(1)}" y="${(cy - r * 1.3).toFixed(1)}" width="${1.2 * r}" height="${2.6 * r}" ${fill}/>`;
    default:
      return `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r}" ${fill}/>`;
  }
}

// The legend's sample of series i: a short stretch of its line, with its dash and its marker.
export function legendSample(i) {
  const s = seriesStyle(i);
  return `<svg class="swatch-line" viewBox="0 0 26 10" width="26" height="10" aria-hidden="true">
    <line x1="1" y1="5" x2="25" y2="5" stroke="${s.color}" stroke-width="2.5" stroke-dasharray="${s.dash}"/>${marker(s.marker, 13, 5, s.color)}</svg>`;
}

export function scoreChart(names, history, title) {
  if (!history.length) return "";
  const totals = names.map(() => [0]);
  for (const row of history) row.forEach((v, i) => totals[i]?.push(totals[i].at(-1) + v));
  const all = totals.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const w = 300, h = 160, pad = 26;
  const x = (k) => pad + ((w - 2 * pad) * k) / Math.max(1, history.length);
  const y = (v) => h - pad - ((h - 2 * pad) * (v - lo)) / (hi - lo);
  // A series the same all along as earlier ones would hide under them, its colour in the
  // legend with no line to be seen: it is drawn a little below the last of them.
  const same = totals.map((series, i) => totals.slice(0, i).filter((o) => o.join() === series.join()).length);
  const lines = totals
    .map((series, i) => {
      const s = seriesStyle(i);
      const at = series.map((v, k) => [x(k), y(v) + NUDGE * same[i]]);
      const points = at.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
      const marks = at.map(([px, py]) => marker(s.marker, px, py, s.color)).join("");
      return `<g class="series" data-series="${i}"><polyline points="${points}" fill="none" stroke="${s.color}" stroke-width="2.5" stroke-dasharray="${s.dash}"/>${marks}</g>`;
    })
    .join("");
  // The legend is HTML under the chart: every name whole, wrapping as the panel needs.
  const legend = names.map((n, i) => `<li>${legendSample(i)}${personName(n)}</li>`).join("");
  // Said in an attribute, where no <bdi> goes: a Hebrew name unisolated pulled its score before it.
  const summary = names.map((n, i) => `${isolated(n)}: ${totals[i].at(-1)}`).join(", ");
  return `<figure class="chart-box"><svg class="score-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeHtml(title)}: ${escapeHtml(summary)}">
    <line x1="${pad}" y1="${y(0)}" x2="${w - pad}" y2="${y(0)}" stroke="#999" stroke-dasharray="3 3"/>
    <text x="2" y="${y(hi) + 4}" font-size="10" fill="currentColor">${hi}</text>
    <text x="2" y="${y(lo) + 4}" font-size="10" fill="currentColor">${lo}</text>
    ${lines}</svg><ul class="legend" aria-hidden="true">${legend}</ul></figure>`;
}
