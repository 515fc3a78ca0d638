// The replay viewer (/replay/CODE[?match=N]): a match's record stepped through deal by deal,
// trick by trick or move by move, from one seat or with all hands open (once the match is over;
// while it runs the record is redacted to your seat, so only your hands are in it).

import { lang, setDeck, t } from "./i18n.js";
import { cardChips, cardSVG, spokenLine } from "./cards.js";
import { escapeHtml, isolated, isolatedNames, personName } from "./lobby.js";
import { fairBox, wireFair } from "./fair.js";
import { cardOf, decisionAt, decisionIndex, reviewChart, reviewControls, reviewNote, reviewSummary } from "./review.js";

function deckOf(doc) {
  const cards = doc.deals.flatMap((d) => [...d.deck, ...d.hands.flat()]);
  const french = cards.some((c) => /^[TJQKA]/.test(c) || "dhs".includes(c.slice(-1)));
  return french ? "french" : "spanish";
}

// What the table looks like after action `upto` of a deal (-1: as dealt), from `viewer`'s
// seat (null: all hands open).
function simulate(deal, upto, viewer) {
  const hands = deal.hands.map((h) => [...h]);
  let trick = [];
  let lastTrick = null;
  const events = (after) => deal.events.filter((e) => e.after === after);
  const apply = (e) => {
    if (e.type === "trick") {
      lastTrick = { cards: trick, winner: e.winner };
      trick = [];
    } else if (e.type === "run") {
      // A Poch run: the card played goes on by itself, each next card from whoever holds it,
      // until it stops; the whole run leaves its holders' hands and the table.
      e.seats.forEach((s, k) => {
        const at = hands[s].indexOf(e.cards[k]);
        if (at >= 0) hands[s].splice(at, 1);
      });
      lastTrick = { cards: e.seats.map((s, k) => [s, e.cards[k]]), winner: null };
      trick = [];
    } else if (e.type === "draw") {
      (e.seats || []).forEach((s, k) => e.cards[k] && hands[s].push(e.cards[k]));
    } else if (e.type === "swap") {
      const hand = hands[e.seat];
      const at = hand.indexOf(e.gave);
      if (at >= 0) hand.splice(at, 1, e.took);
    }
  };
  events(-1).forEach(apply);
  for (let i = 0; i <= upto && i < deal.actions.length; i++) {
    const { seat, action } = deal.actions[i];
    const words = action.split(" ");
    const hidden = words[0] === "play" && words[words.length - 1] === "down" && viewer !== null && viewer !== seat;
    if (words[0] === "play" && words.length >= 2) {
      // A blind play (Truco's mão de ferro) names a position: the seat's Nth card still held,
      // in the order dealt, which is the order of the record's hands.
      const blind = /^[0-9]+$/.test(words[1]);
      const card = words[1] === "down" ? null : blind ? hands[seat][Number(words[1]) - 1] : words[1];
      const at = card ? hands[seat].indexOf(card) : -1;
      if (at >= 0) hands[seat].splice(at, 1);
      trick.push([seat, hidden ? null : card]);
    }
    for (const e of events(i)) apply(e);
  }
  return { hands, trick, lastTrick };
}

// A seat named as at the table (the server's seat_name): a bot saved as "bot 2 · medium" reads
// "bot 2 · medio" in Spanish; a player by his name.
function seatName(s, i) {
  if (s.kind === "bot" && s.bot && s.name === `bot ${i + 1} · ${s.bot}`) {
    return `${t("bot {n}", { n: i + 1 })} · ${t(s.bot)}`;
  }
  if (s.kind === "human" && s.name === `player ${i + 1}`) return t("player {n}", { n: i + 1 });
  return s.name || t("seat {n}", { n: i + 1 });
}

// The running totals at a point of the match: the last score event at or before it (zeros at
// the start); per seat, or per team when the game scores by teams.
function totalsAt(doc, dealIndex, step) {
  let totals = null;
  let width = doc.seats.length;
  doc.deals.forEach((deal, d) => {
    for (const e of deal.events) {
      if (e.type !== "score") continue;
      width = (e.totals || e.score).length;
      if (d < dealIndex || (d === dealIndex && e.after <= step)) totals = e.totals || totals;
    }
  });
  return totals || Array(width).fill(0);
}

// The bids made so far in a deal, by seat (null: not yet); null when the game has no bids.
function bidsAt(deal, step) {
  if (!deal.actions.some((a) => a.action.startsWith("bid "))) return null;
  const bids = deal.hands.map(() => null);
  deal.actions.forEach((a, i) => {
    if (i <= step && a.action.startsWith("bid ")) bids[a.seat] = a.action.slice(4);
  });
  return bids;
}

export async function renderReplay(root, code, match, token) {
  const query = new URLSearchParams();
  if (match !== null) query.set("match", match);
  // The seat token goes in a header: a URL would keep it in logs and the browser's history.
  const response = await fetch(`/api/tables/${code}/record?${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    root.innerHTML = `<section class="replay-page"><h1>${t("Replay")}</h1><p>${t("No record to replay yet.")}</p></section>`;
    return;
  }
  const doc = await response.json();
  // The log in words comes from the server's narrator, as this seat may know the match.
  query.set("lang", lang());
  const told = await fetch(`/api/tables/${code}/narration?${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const telling = told.ok ? await told.json() : { deals: [], game: doc.game, unit: "deal", trick: "trick" };
  const story = telling.deals;
  // The buttons that go a deal back or on, by the game's word for a deal, as the line that says
  // where the replay is: a Truco hand is "mão" in Portuguese, where a "rodada" is one of its
  // three rounds (a trick).
  const steps = {
    hand: [t("previous hand"), t("next hand")],
    round: [t("previous round"), t("next round")],
  }[telling.unit] ?? [t("previous deal"), t("next deal")];
  // and the tricks by its word for them: Truco's three a hand are its rounds (ronda, rodada),
  // Poch's race lays runs (escaleras).
  const tricks = {
    round: [t("previous round"), t("next round")],
    "run of cards": [t("previous run"), t("next run")],
  }[telling.trick] ?? [t("previous trick"), t("next trick")];
  const deck = deckOf(doc);
  setDeck(deck);
  const complete = !doc.redacted && doc.result !== null;
  const names = doc.seats.map(seatName);
  const state = {
    deal: 0,
    step: -1,
    review: null,
    viewer: complete ? null : doc.redacted?.seat ?? null,
  };
  if (!complete && state.viewer === null) state.viewer = -1; // a spectator: no hand is known
  let number = match ?? (doc.redacted ? null : 0);
  if (complete && match === null) {
    // the table's current match, over: its number (for the review and the fair-dealing box)
    const table = await fetch(`/api/tables/${code}`);
    if (table.ok) number = (await table.json()).match;
  }
  root.innerHTML = `
    <section class="replay-page" aria-label="${t("Replay")}">
      <h1>${t("Replay")} · ${escapeHtml(telling.game)} · ${escapeHtml(code)}</h1>
      <div class="replay-controls" role="group">
        <button type="button" data-go="prev-deal">|◀ ${steps[0]}</button>
        <button type="button" data-go="prev-trick">◀◀ ${tricks[0]}</button>
        <button type="button" data-go="back">◀ ${t("step back")}</button>
        <button type="button" data-go="forward">${t("step forward")} ▶</button>
        <button type="button" data-go="next-trick">${tricks[1]} ▶▶</button>
        <button type="button" data-go="next-deal">${steps[1]} ▶|</button>
        <label>${t("show")} <select class="viewer">
          <option value="all"${complete ? "" : " disabled"}>${t("all hands")}</option>
          ${names.map((n, i) => `<option value="${i}">${escapeHtml(isolated(n))}</option>`).join("")}
        </select></label>
      </div>
      <p class="where"></p>
      <p class="sr replay-said" aria-live="polite"></p>
      <p class="replay-scores"></p>
      ${complete ? "" : `<p class="note">${t("all hands open once the match is over")}</p>`}
      <div class="replay-board">
        <ol class="replay-seats"></ol>
        <div class="replay-side">
          <div class="replay-trick" aria-label="${t("trick")}"></div>
          <p class="review-note" aria-live="polite"></p>
        </div>
      </div>
      ${complete ? `<section class="review" aria-label="${t("The coach's review")}">
        <h2>${t("The coach's review")}</h2>
        <div class="review-controls"></div>
        <div class="review-summary"></div>
        <div class="review-chart"></div>
      </section>` : ""}
      <h2>${t("log")}</h2>
      <ol class="replay-log"></ol>
      ${doc.seed_hash ? fairBox(code, number ?? 0, doc.seed_hash, complete ? doc.seed : null, false, doc.seed_salt) : ""}
    </section>`;
  wireFair(root);
  const $ = (sel) => root.querySelector(sel);
  if (complete) {
    const auto = new URLSearchParams(location.search).get("review") === "1";
    reviewControls($(".review-controls"), code, number, (review) => {
      state.review = review;
      $(".review-summary").innerHTML = reviewSummary(review, names);
      draw();
    }, { auto });
    // A costly decision marked on the chart takes the replay to it.
    $(".review-chart").addEventListener("click", (event) => {
      const mark = event.target.closest("circle.mark");
      if (!mark) return;
      Object.assign(state, { deal: Number(mark.dataset.deal), step: Number(mark.dataset.move) - 1 });
      draw();
    });
  }
  const select = $(".viewer");
  select.value = state.viewer === null ? "all" : String(Math.max(0, state.viewer));
  select.addEventListener("change", () => {
    state.viewer = select.value === "all" ? null : Number(select.value);
    draw();
  });

  // A trick taken, or a Poch run ended (its "run" event).
  const trickEnds = (deal) => deal.events.filter((e) => e.type === "trick" || e.type === "run").map((e) => e.after);
  const go = {
    forward() {
      const deal = doc.deals[state.deal];
      if (state.step < deal.actions.length - 1) state.step++;
      else if (state.deal < doc.deals.length - 1) Object.assign(state, { deal: state.deal + 1, step: -1 });
    },
    back() {
      if (state.step > -1) state.step--;
      else if (state.deal > 0) Object.assign(state, { deal: state.deal - 1, step: doc.deals[state.deal - 1].actions.length - 1 });
    },
    "next-deal"() {
      if (state.deal < doc.deals.length - 1) Object.assign(state, { deal: state.deal + 1, step: -1 });
      else state.step = doc.deals[state.deal].actions.length - 1;
    },
    "prev-deal"() {
      if (state.step > -1) state.step = -1;
      else if (state.deal > 0) Object.assign(state, { deal: state.deal - 1, step: -1 });
    },
    "next-trick"() {
      const next = trickEnds(doc.deals[state.deal]).find((a) => a > state.step);
      if (next !== undefined) state.step = next;
      else go["next-deal"]();
    },
    "prev-trick"() {
      const ends = trickEnds(doc.deals[state.deal]).filter((a) => a < state.step);
      state.step = ends.length ? ends[ends.length - 1] : -1;
    },
  };
  for (const button of root.querySelectorAll("[data-go]")) {
    button.addEventListener("click", () => {
      go[button.dataset.go]();
      draw();
    });
  }

  function draw() {
    const deal = doc.deals[state.deal];
    const viewer = state.viewer;
    const seen = simulate(deal, state.step, viewer);
    const bids = bidsAt(deal, state.step);
    // The engine's running scores (chips bet count at once), as the narration gives them; the
    // record's score events where it could not be had.
    const totals = story[state.deal]?.scores?.[state.step + 1] ?? totalsAt(doc, state.deal, state.step);
    const sides = totals.length === names.length ? names : totals.map((_, i) => t("team {n}", { n: i + 1 }));
    $(".replay-scores").innerHTML = `${t("scores")}: ${totals
      .map((v, i) => `<span class="total" data-side="${i}">${personName(sides[i])} <strong>${v}</strong></span>`)
      .join(" · ")}`;
    // The deal by the game's own word (a Pocha hand, a Poch round), of those in the record:
    // while the match runs, of those dealt so far.
    const where = { unit: t(telling.unit), n: state.deal + 1, total: doc.deals.length };
    $(".where").textContent = `${t("{unit} {n} of {total} in the record", where)} · ${t("move {n} of {total}", { n: state.step + 1, total: deal.actions.length })}`;
    $(".replay-seats").innerHTML = seen.hands
      .map((hand, s) => {
        const open = viewer === null || viewer === s;
        const cards = open
          ? hand.map((c) => cardSVG(c, `data-card="${c}"`)).join("")
          : `<span class="backs">${complete && hand.length === 1 ? t("1 card") : t("{n} cards", { n: complete ? hand.length : "?" })}</span>`;
        const dealer = deal.dealer === s ? ` <span class="chip dealer">${t("dealer")}</span>` : "";
        const bid = bids ? ` <span class="bid">${t("bid")} ${bids[s] ?? "–"}</span>` : "";
        return `<li class="replay-seat${open ? " open" : ""}" data-seat="${s}"><span class="name">${personName(names[s])}${dealer}</span>${bid} <span class="cards">${cards}</span></li>`;
      })
      .join("");
    const shown = seen.trick.length ? seen.trick : seen.lastTrick ? seen.lastTrick.cards : [];
    $(".replay-trick").innerHTML = shown
      .map(([s, c]) => `<figure data-seat="${s}">${cardSVG(c)}<figcaption>${personName(names[s])}</figcaption></figure>`)
      .join("");
    const words = story[state.deal] || { first: [], steps: [] };
    $(".replay-log").innerHTML = [...words.first, ...words.steps.slice(0, state.step + 1).flat()]
      .map((line) => `<li>${isolatedNames(cardChips(escapeHtml(line), deck))}</li>`)
      .join("");
    // A screen reader hears where the replay is and the move just stepped to, in words (the
    // deal's own lines at its start), as the log shows them.
    const said = state.step >= 0 ? [words.steps[state.step] || []].flat() : words.first;
    $(".replay-said").textContent = [$(".where").textContent, ...said.map((line) => spokenLine(line, deck))].join(". ");
    drawReview();
    // Marked, not disabled: a disabled button drops the focus to the page's body, and the
    // keyboard that stepped to the end or the start would lose its place (pressed there, they
    // do nothing).
    const ends = {
      back: state.deal === 0 && state.step === -1,
      forward: state.deal === doc.deals.length - 1 && state.step === deal.actions.length - 1,
    };
    for (const [go, end] of Object.entries(ends)) {
      root.querySelector(`[data-go="${go}"]`).setAttribute("aria-disabled", String(end));
    }
  }
  // The review of the decision just played, beside the table; the better card outlined in the
  // hand it stayed in; the chart with where the replay is.
  function drawReview() {
    const review = state.review;
    if (!review) return;
    const d = decisionAt(review, state.deal, state.step);
    $(".review-note").innerHTML = reviewNote(review, d, names);
    const better = d && d.loss > 0 ? cardOf(d.best) : null;
    const card = better && root.querySelector(`.replay-seat[data-seat="${d.seat}"] svg[data-card="${better}"]`);
    if (card) {
      card.classList.add("better");
      card.setAttribute("aria-label", `${card.getAttribute("aria-label") || better} · ${t("better move")}`);
    }
    $(".review-chart").innerHTML = reviewChart(review, names, decisionIndex(review, state.deal, state.step));
  }
  draw();
}
