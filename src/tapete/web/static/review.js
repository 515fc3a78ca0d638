// The coach's review in the replay viewer: asked for once the match is over, followed while
// the server's review workers go through it (cancellable), then told beside each decision, the
// better card outlined in the hand, and a chart of each seat's expected score through the match.
//
// The server keeps a review once it is made: a second request, by anyone, is answered at once.

import { formatNumber, lang, t } from "./i18n.js";
import { escapeHtml, isolated, personName, refusal } from "./lobby.js";
import { legendSample, marker, seriesStyle } from "./chart.js";

const VERDICT_COLORS = { inaccuracy: "#e3b505", mistake: "#e07a22", blunder: "#c0262d" };

// The decision a replay step shows: the one made by action `step` (from 0) of deal `deal`.
export function decisionAt(review, deal, step) {
  if (!review || step < 0) return null;
  return review.decisions.find((d) => d.deal === deal && d.move === step + 1) || null;
}

// The card a move plays, when it plays one ("play 3o", "play 7h down"); else null.
export function cardOf(action) {
  const words = action.split(" ");
  return words[0] === "play" && words.length >= 2 && !/^\d+$/.test(words[1]) ? words[1] : null;
}

// One decision in words: who played what, and how it compares with the best.
export function reviewNote(review, d, names) {
  if (!d) return "";
  // A stand-in's move is said to be one, and never graded as the player's.
  const by = d.stand_in ? ` <span class="stand-in">(${escapeHtml(d.stand_in_label)})</span>` : "";
  const played = `${personName(names[d.seat])}: ${escapeHtml(d.played_label)}${by}`;
  if (d.loss <= 0) return `<span class="played">${played}</span> · <span class="good">${t("as good as the best")}</span>${options(review, d)}`;
  const worse = t("better {move}: {loss} {unit}", {
    move: `<strong>${escapeHtml(d.best_label)}</strong>`,
    loss: `−${formatNumber(d.loss)}`,
    unit: escapeHtml(review.unit_label),
  });
  const verdict = d.verdict && !d.stand_in
    ? ` <span class="verdict ${d.verdict}" style="background:${VERDICT_COLORS[d.verdict]}">${escapeHtml(d.verdict_label)}</span>`
    : "";
  return `<span class="played">${played}</span> · <span class="better">${worse}</span>${verdict}${options(review, d)}`;
}

// Every legal action of a decision with its expected points, best first.
function options(review, d) {
  const rows = (d.options || [])
    .map(([label, value]) => `<li${label === d.played_label ? ' class="was-played"' : ""}>${escapeHtml(label)}: ${formatNumber(value)}</li>`)
    .join("");
  return rows ? `<details class="options"><summary>${t("every option")} (${escapeHtml(review.unit_label)})</summary><ol>${rows}</ol></details>` : "";
}

// The review's words for a deal, by what the game calls one (a review kept before it said so
// is of deals).
const PER_DEAL = {
  hand: { lost: "lost a hand", note: "the hands before, plus what the hand was expected to bring after each move" },
  round: { lost: "lost a round", note: "the rounds before, plus what the round was expected to bring after each move" },
  deal: { lost: "lost a deal", note: "the deals before, plus what the deal was expected to bring after each move" },
};
const perDeal = (review) => PER_DEAL[review.deal_unit] || PER_DEAL.deal;

// Under a seat's name, how many of its decisions a stand-in made: counted in none of its numbers.
function standIns(p) {
  if (!p.stand_ins) return "";
  const said = p.stand_ins === 1
    ? t("1 more decision played by a stand-in, not counted")
    : t("{n} more decisions played by a stand-in, not counted", { n: p.stand_ins });
  return `<br><small class="stand-ins">${escapeHtml(said)}</small>`;
}

// Each reviewed seat's accuracy, points lost a deal and verdicts.
export function reviewSummary(review, names) {
  const count = (seat, verdict) => review.decisions.filter((d) => d.seat === seat && !d.stand_in && d.verdict === verdict).length;
  const rows = review.players
    .map(
      // A seat with no decision of its own to review (all forced, or all a stand-in's) has no
      // accuracy and no loss: a dash, not 100%.
      (p) => `<tr data-seat="${p.seat}"><th scope="row">${personName(names[p.seat])}${standIns(p)}</th><td>${p.accuracy == null ? "—" : `${formatNumber(p.accuracy)}%`}</td>
        <td>${p.accuracy == null ? "—" : formatNumber(p.loss_per_deal, 2)}</td><td>${count(p.seat, "inaccuracy")}</td><td>${count(p.seat, "mistake")}</td><td>${count(p.seat, "blunder")}</td></tr>`,
    )
    .join("");
  return `<table class="review-players"><thead><tr><th></th><th>${t("accuracy")}</th>
    <th>${t(perDeal(review).lost)} (${escapeHtml(review.unit_label)})</th><th>${t("inaccuracies")}</th><th>${t("mistakes")}</th><th>${t("blunders")}</th></tr></thead>
    <tbody>${rows}</tbody></table>`;
}

// Per seat, at each of its reviewed decisions: what the deals before brought it, plus what the
// deal was expected to bring after the move played (and after the best one).
export function expectedSeries(review) {
  const seats = review.returns.length ? review.returns[0].length : 0;
  const before = [Array(seats).fill(0)];
  for (const row of review.returns) before.push(row.map((v, s) => before.at(-1)[s] + v));
  return review.decisions.map((d, x) => {
    const base = (before[d.deal] || before.at(-1))[d.seat] ?? 0;
    return { x, d, y: base + (d.values[d.played] ?? 0), best: base + (d.values[d.best] ?? 0) };
  });
}

// The chart: one line per seat, the costly decisions marked in their verdict's colour (each a
// link to its step), the deals apart by dotted lines, and `current` (a decision's index) shown.
export function reviewChart(review, names, current) {
  const points = expectedSeries(review);
  if (!points.length) return "";
  const ys = points.flatMap((p) => [p.y, p.best]);
  const lo = Math.min(0, ...ys);
  const hi = Math.max(1, ...ys);
  const w = 640, h = 200, pad = 30;
  const x = (k) => pad + ((w - 2 * pad) * k) / Math.max(1, points.length - 1);
  const y = (v) => h - pad - ((h - 2 * pad) * (v - lo)) / (hi - lo);
  const seats = [...new Set(points.map((p) => p.d.seat))].sort((a, b) => a - b);
  // Each seat's line has the dash and marker shape the score chart gives it, not only its
  // colour; a marker every few points (a long match has hundreds), and at the line's end.
  const lines = seats
    .map((s) => {
      const style = seriesStyle(s);
      const mine = points.filter((p) => p.d.seat === s);
      const path = mine.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
      const every = Math.max(1, Math.ceil(mine.length / 12));
      const marks = mine
        .filter((p, k) => k % every === 0 || k === mine.length - 1)
        .map((p) => marker(style.marker, x(p.x), y(p.y), style.color, "seat-mark"))
        .join("");
      return `<g class="series" data-seat="${s}"><polyline class="expected" data-seat="${s}" points="${path}" fill="none" stroke="${style.color}" stroke-width="2" stroke-dasharray="${style.dash}"/>${marks}</g>`;
    })
    .join("");
  const deals = points
    .filter((p, k) => k > 0 && points[k - 1].d.deal !== p.d.deal)
    .map((p) => `<line x1="${x(p.x - 0.5)}" y1="${pad / 2}" x2="${x(p.x - 0.5)}" y2="${h - pad}" stroke="#bbb" stroke-dasharray="2 3"/>`)
    .join("");
  const marks = points
    .filter((p) => p.d.verdict && !p.d.stand_in)
    .map((p) => {
      const label = `${isolated(names[p.d.seat])}: ${p.d.played_label} → ${p.d.best_label} (${p.d.verdict_label})`;
      return `<circle class="mark ${p.d.verdict}" data-deal="${p.d.deal}" data-move="${p.d.move}" cx="${x(p.x).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="4.5" fill="${VERDICT_COLORS[p.d.verdict]}" stroke="#fff"><title>${escapeHtml(label)}</title></circle>`;
    })
    .join("");
  const now = current === null ? "" : `<line class="now" x1="${x(current)}" y1="${pad / 2}" x2="${x(current)}" y2="${h - pad}" stroke="currentColor" stroke-width="1.5"/>`;
  const legend = seats
    .map((s) => `<li>${legendSample(s)}${personName(names[s])}</li>`)
    .join("");
  const title = t("expected score through the match");
  return `<figure class="chart-box review-chart-box"><figcaption>${title} (${escapeHtml(review.unit_label)})</figcaption>
    <svg class="expected-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeHtml(title)}">
    <line x1="${pad}" y1="${y(0)}" x2="${w - pad}" y2="${y(0)}" stroke="#999" stroke-dasharray="3 3"/>
    <text x="2" y="${y(hi) + 4}" font-size="10" fill="currentColor">${Math.round(hi)}</text>
    <text x="2" y="${y(lo) + 4}" font-size="10" fill="currentColor">${Math.round(lo)}</text>
    ${deals}${lines}${now}${marks}</svg>
    <ul class="legend" aria-hidden="true">${legend}</ul>
    <p class="note">${t(perDeal(review).note)}</p></figure>`;
}

// The index in review.decisions of the last decision at or before a replay step.
export function decisionIndex(review, deal, step) {
  let found = null;
  review.decisions.forEach((d, k) => {
    if (d.deal < deal || (d.deal === deal && d.move <= step + 1)) found = k;
  });
  return found;
}

// The review's own controls: ask, follow, cancel. `shown(review)` is called once it is done.
export function reviewControls(box, code, match, shown, { auto = false } = {}) {
  const url = `/api/tables/${code}/reviews/${match}`;
  box.innerHTML = `<button type="button" class="review-btn">${t("review this match")}</button>
    <span class="review-progress" aria-live="polite"></span>
    <button type="button" class="review-cancel" hidden>${t("cancel")}</button>`;
  const button = box.querySelector(".review-btn");
  const cancel = box.querySelector(".review-cancel");
  const progress = box.querySelector(".review-progress");
  let timer = null;

  function answer(got) {
    clearTimeout(timer);
    if (got.status === "done") {
      box.hidden = true;
      shown(got.review);
      return;
    }
    const running = got.status === "running";
    button.hidden = running;
    cancel.hidden = !running;
    if (running) {
      progress.textContent = t("reviewing decision {done} of {total}", { done: got.done, total: got.total || "…" });
      timer = setTimeout(follow, 400);
    } else if (got.status === "failed") {
      progress.textContent = t("The review failed.");
    }
  }
  async function follow() {
    if (!box.isConnected) return;
    const response = await fetch(`${url}?lang=${lang()}`);
    if (response.ok) answer(await response.json());
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    const response = await fetch(`${url}?lang=${lang()}`, { method: "POST" });
    button.disabled = false;
    if (response.ok) answer(await response.json());
    else progress.textContent = refusal(response, await response.json().catch(() => null));
  });
  cancel.addEventListener("click", async () => {
    clearTimeout(timer);
    const response = await fetch(`${url}?lang=${lang()}`, { method: "DELETE" });
    if (response.ok) {
      answer(await response.json());
      progress.textContent = t("The review was cancelled.");
    }
  });
  // What the server has already: a kept review, or one under way; `auto` asks at once.
  fetch(`${url}?lang=${lang()}`)
    .then((r) => (r.ok ? r.json() : null))
    .then((got) => {
      if (!got) return;
      if (got.status === "none" && auto) button.click();
      else answer(got);
    });
}
