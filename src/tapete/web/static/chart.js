// The score chart: each seat's (or team's) running total after every deal, as an SVG line chart.

import { escapeHtml } from "./lobby.js";

export const COLORS = ["#d1495b", "#2e86ab", "#edae49", "#66a182", "#8d6cab", "#e07a5f", "#3d405b", "#81b29a"];

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
  const lines = totals
    .map((series, i) => {
      const points = series.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      return `<polyline points="${points}" fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="2.5"/>`;
    })
    .join("");
  // The legend is HTML under the chart: every name whole, wrapping as the panel needs.
  const legend = names
    .map((n, i) => `<li><span class="swatch" style="background:${COLORS[i % COLORS.length]}"></span>${escapeHtml(n)}</li>`)
    .join("");
  const summary = names.map((n, i) => `${n}: ${totals[i].at(-1)}`).join(", ");
  return `<figure class="chart-box"><svg class="score-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeHtml(title)}: ${escapeHtml(summary)}">
    <line x1="${pad}" y1="${y(0)}" x2="${w - pad}" y2="${y(0)}" stroke="#999" stroke-dasharray="3 3"/>
    <text x="2" y="${y(hi) + 4}" font-size="10" fill="currentColor">${hi}</text>
    <text x="2" y="${y(lo) + 4}" font-size="10" fill="currentColor">${lo}</text>
    ${lines}</svg><ul class="legend" aria-hidden="true">${legend}</ul></figure>`;
}
