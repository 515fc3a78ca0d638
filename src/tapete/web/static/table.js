// A table: the waiting room before the match, then the felt with the seats, the trick, your hand,
// the buttons for what the rules offer now, the log, the scores and the end-of-match summary.
// Everything drawn comes from the server's messages (a Table presented from your seat's view).

import { cardGlyph, cardName, levelHelp, setDeck, t } from "./i18n.js";
import { CARD_RE, cardChips, cardSVG, spokenLine } from "./cards.js";
import { scoreChart } from "./chart.js";
import { answerOf, askAgain, escapeHtml, isolated, isolatedNames, newKey, offline, personName, refusal, refusalCode } from "./lobby.js";
import { fairBox, rememberHash, wireFair } from "./fair.js";
import { PlayerRefused, ensurePlayer } from "./players.js";

// The least a card of a fanned hand shows, in CSS px: WCAG 2.2's enhanced target size (2.5.5).
const TARGET = 44;
// Seconds left on your turn's clock when a screen reader is told it runs low.
const WARN_AT = 10;
// A phone on its side (style.css lays the hand beside the felt there).
const SIDEWAYS = "(max-height: 500px) and (orientation: landscape)";

// The join key of this browser's join at table `code` (docs/protocol.md), kept until the
// join's answer comes, so a join asked again after its answer was lost (by the page, a click
// again, the page reloaded) is the same join.
function joinKey(code) {
  const name = `tapete:join:${code}`;
  let key = localStorage.getItem(name);
  if (!key) {
    key = newKey();
    localStorage.setItem(name, key);
  }
  return key;
}

// A CSS length as `box` resolves it, in px: the stylesheet's sizes are in rem (the reader's
// text size), a custom property's value is its text ("4.25rem"), not pixels.
function lengthIn(box, length) {
  const probe = document.createElement("div");
  probe.style.cssText = `position: absolute; visibility: hidden; height: 0; width: ${length}`;
  box.append(probe);
  const px = probe.getBoundingClientRect().width;
  probe.remove();
  return px;
}

// Whether the view asks something of you: a card to play or a button to press.
function myTurn(actions) {
  return Object.keys(actions.cards).length > 0 || actions.buttons.length > 0;
}

// Puts `text` on the clipboard; whether it did. A page over plain http (a server on the home
// network, http://192.168.1.5:8000) is no secure context and has no navigator.clipboard: there
// the text is selected in a field of its own and copied as a selection is. The keyboard goes
// back to `control`.
async function copyText(text, control) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // no clipboard API here, or it was refused: the older way below
  }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  document.body.append(field);
  field.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  field.remove();
  control?.focus();
  return copied;
}

// A selector that finds the focused control of `box` again after `box` is drawn anew (null when
// the focus is elsewhere): its tag, first class, data attributes and a link's address.
function focusKey(box) {
  const el = document.activeElement;
  if (!el || el === box || !box.contains(el)) return null;
  let key = el.tagName.toLowerCase();
  if (el.classList.length) key += `.${CSS.escape(el.classList[0])}`;
  for (const attr of el.attributes) {
    if (attr.name.startsWith("data-") || (el.tagName === "A" && attr.name === "href")) {
      key += `[${attr.name}="${CSS.escape(attr.value)}"]`;
    }
  }
  return key;
}

export class TableView {
  constructor(root, code, io) {
    this.root = root;
    this.code = code;
    this.io = io;
    this.roomMsg = null;
    this.viewMsg = null;
    this.log = [];
    this.seat = null;
    this.timerEnd = null;
    this.hinted = null;
    this.pending = null; // the version of the view a move was sent for, until the table answers
    this.away = null; // the server's words while it cannot show the table (unavailable)
    this.root.innerHTML = `
    <section class="table-page">
      <div class="banner" hidden role="status"></div>
      <div class="bar">
        <h1 class="title" tabindex="-1"></h1>
        <span class="code-box"></span>
        <span class="status"></span>
        <span class="timer" aria-live="off"></span>
      </div>
      <p class="in-force" hidden></p>
      <div class="layout">
        <div class="board">
          <div class="facts">
            <dl class="info"></dl>
            <table class="bowls" hidden></table>
          </div>
          <div class="felt" role="group">
            <div class="seats"></div>
            <div class="trick" role="group"></div>
            <div class="flying" aria-hidden="true"></div>
          </div>
          <div class="hand-area">
            <p class="explain" hidden></p>
            <div class="buttons" role="group"></div>
            <div class="hand" role="group" tabindex="-1"></div>
            <p class="keys"></p>
          </div>
        </div>
        <aside class="side">
          <div class="tools"></div>
          <p class="hint-box" aria-live="polite"></p>
          <h2 class="log-title"></h2>
          <ol class="log"></ol>
          <h2 class="scores-title"></h2>
          <div class="scores"></div>
          <div class="chart"></div>
        </aside>
      </div>
      <div class="waiting" hidden></div>
      <div class="summary" hidden role="dialog" aria-modal="false" aria-labelledby="summary-title" aria-describedby="summary-result"></div>
      <div class="sr announce" role="log" aria-live="polite"></div>
    </section>`;
    this.$ = (sel) => this.root.querySelector(sel);
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    this.ticker = setInterval(() => this.tick(), 500);
    this.relabel();
  }

  // A message for the server, or, offline, a word that it was not sent: a click made while the
  // connection is lost is not kept to be played later (the table may have moved on by then),
  // nor lost without a word.
  send(message) {
    if (this.io.send(message)) return true;
    this.io.toast(t("You are offline: not sent"));
    return false;
  }

  destroy() {
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ticker);
  }

  // A new connection (the first, or one after a drop) is sent the recent log again with its
  // first view: that log replaces the one shown when it comes (or every entry would show twice),
  // and the old one stays until then rather than leaving the log blank.
  connected(up) {
    if (up) this.staleLog = true;
    this.drawBanner(up);
  }

  // The table shown again after a lost connection is said to be back (a banner that only goes
  // is easily missed), once, with `lostMove`: a move sent before the loss that the table does
  // not have and asks for again.
  back(lostMove) {
    if (!this.lost) return;
    this.lost = false;
    this.io.toast(t(lostMove ? "Your move did not reach the table: play it again" : "Connected again"));
  }

  // The server cannot show this table for a moment (a server of several that lost touch with
  // the others): its words (`text`, in the page's language) stay in the banner while the page
  // tries again, through every closing and reopening, until the table itself is shown again —
  // a connection that opens is no sign: the server may turn it away at once.
  unavailable(text) {
    this.away = text;
    this.drawBanner(false);
  }

  // The table is shown again (its view; its room while it waits for the start): whatever was
  // unavailable is back.
  shown() {
    if (this.away === null) return;
    this.away = null;
    this.drawBanner(true);
  }

  drawBanner(up) {
    const banner = this.$(".banner");
    const text = this.away ?? (up ? "" : t("Connection lost: reconnecting…"));
    // "Connected again" answers the "connection lost" only: a table back from unavailable shows
    // itself (its banner going is the news).
    if (this.away !== null) this.lost = false;
    else if (!up) this.lost = true;
    banner.hidden = !text;
    banner.textContent = text;
  }

  clearLog() {
    this.log = [];
    this.$(".log").innerHTML = "";
  }

  // The felt's seats and trick drawn again for a new screen size or card size: what fitted
  // the old one may overlap in the new.
  refit() {
    if (!this.viewMsg) return;
    this.drawSeats(this.viewMsg.table);
    this.drawTrick(this.viewMsg.table);
    this.fanHand();
  }

  relabel() {
    this.$(".log-title").textContent = t("log");
    this.$(".scores-title").textContent = t("scores");
    // Every name a screen reader says is in the page's language, after a switch mid-match too.
    this.root.querySelector(".table-page").setAttribute("aria-label", t("table"));
    this.$(".felt").setAttribute("aria-label", t("table"));
    this.labelTrick();
    this.$(".hand").setAttribute("aria-label", t("your hand"));
    this.$(".buttons").setAttribute("aria-label", t("actions"));
    this.clearLog();
    this.staleLog = true; // the server sends the recent log again, in the new language
    if (this.roomMsg) this.room(this.roomMsg);
  }

  // The trick's area is named as the game calls a trick: Truco's rules call it a round (ronda,
  // rodada), as its log and replay do, where a screen reader said "baza" / "vaza".
  labelTrick() {
    this.$(".trick").setAttribute("aria-label", t(this.roomMsg?.trick ?? "trick"));
  }

  // --- messages ------------------------------------------------------------------------------

  welcome(msg) {
    // A seat taken away while this page sat there is the host's doing: without a word, the
    // person would find their hand gone (or a "sit here" again) and not know why.
    if (msg.refused && this.seat !== null && this.seat !== undefined) {
      this.io.toast(t(this.roomMsg?.started ? "The host removed you from your seat: you are watching" : "The host removed you from your seat"));
    } else if (msg.refused && !this.welcomed) {
      // A page opened with a seat token the table does not take (a seat since taken away, a
      // link's token from another browser) watches: said, or the person would look for their
      // hand without a word why it is not there.
      this.io.toast(t("This browser holds no seat at this table any more: you are watching"));
    }
    this.welcomed = true;
    this.seat = msg.seat;
  }

  room(msg) {
    // From the server (not a redraw, as on a language switch): a table waiting for its start
    // is shown by its room, no view comes.
    if (msg !== this.roomMsg && !msg.started) {
      this.shown();
      this.back(false);
    }
    // Nothing was played yet: the log the start brings (the deal, the card turned up) is news,
    // read out with the first turn, not a log sent again on a reconnection.
    if (msg !== this.roomMsg && !msg.started) this.staleLog = false;
    // The host left before the start and the table passed to you: said, or the start button
    // would appear under you without a word.
    if (this.roomMsg && !this.roomMsg.host && msg.host && !msg.started) {
      this.io.toast(t("The host left: you are the host now"));
    }
    this.roomMsg = msg;
    this.labelTrick();
    rememberHash(msg.code, msg.match, msg.seed_hash, msg.over);
    this.seat = msg.you;
    // The keys play your hand: someone watching has none, and would look for what they do. H
    // asks for a hint and U takes your last move back only against bots alone.
    this.$(".keys").hidden = msg.you === null;
    this.$(".keys").textContent = msg.hint
      ? t("Keys: 1–9 choose a card, ←/→ move, Enter plays, H hint, U undo, B buttons")
      : t("Keys: 1–9 choose a card, ←/→ move, Enter plays, B buttons");
    const box = this.$(".code-box");
    const link = `${location.origin}/t/${msg.code}`;
    this.keepFocus(box, () => {
      box.innerHTML = `${t("table")} <strong>${msg.code}</strong>
        <button type="button" class="copy">${t("copy link")}</button>`;
    });
    box.querySelector(".copy").onclick = async (event) => {
      const copied = await copyText(link, event.currentTarget);
      this.io.toast(copied ? t("Link copied: {link}", { link }) : link);
    };
    this.keepFocus(this.$(".tools"), () => this.drawTools());
    const waiting = this.$(".waiting");
    // The start hides the waiting room: whoever pressed it by keyboard is taken to the hand.
    if (msg.started && !waiting.hidden && waiting.contains(document.activeElement)) this.refocus = true;
    waiting.hidden = msg.started;
    // The waiting room's title names the options set off their defaults; once the match starts
    // the title tells the hand, and this line keeps them in sight for whoever joins or watches.
    const rules = msg.rules || [];
    const inForce = this.$(".in-force");
    inForce.hidden = !msg.started || !rules.length;
    inForce.textContent = t("Rules at this table: {rules}", { rules: rules.join(", ") });
    if (!msg.started) {
      this.$(".title").textContent = msg.title;
      this.$(".status").textContent = t(msg.host ? "start the match when everyone is seated" : "waiting for the host to start");
      // A control the keyboard was on that is gone (the "sit here" just pressed, a seat the host
      // filled): the focus stays in the waiting room, on its heading, not lost to the page.
      // A page that just opened (the table made by the lobby's form, a shared link followed)
      // finds the keyboard nowhere: it starts in the waiting room too, not at the page's top.
      const resting = !document.activeElement || document.activeElement === document.body;
      if ((this.keepFocus(waiting, () => this.drawWaiting()) || resting) && !waiting.contains(document.activeElement)) {
        waiting.querySelector("h2").focus();
      }
    }
    if (this.viewMsg) this.drawSeats(this.viewMsg.table);
    if (this.viewMsg) this.drawSummary(this.viewMsg);
  }

  view(msg) {
    const old = this.viewMsg;
    this.viewMsg = msg;
    const table = msg.table;
    setDeck(table.deck);
    // The log a connection or a language switch brings again was said already: only new
    // moves are read out, or a screen reader would read the last hundred lines at every reload.
    const again = this.staleLog;
    if (this.staleLog || (old && old.match !== msg.match)) this.clearLog();
    this.staleLog = false;
    this.shown();
    const undo = this.$(".undo-btn");
    if (undo) undo.hidden = !msg.undo;
    // A move sent on a connection that went silent before the table answered: the table shown
    // again has not moved and asks for it again, so it never arrived.
    this.back(this.pending === msg.version && msg.match === old?.match && myTurn(msg.actions));
    this.pending = null;
    // The first view of a page (a reload, a link opened mid-match, a friend's table started by
    // the host) finds the keyboard nowhere: on your turn it goes to what the rules ask, as at
    // every move after, rather than leave Tab to walk the whole page to reach it.
    const resting = !document.activeElement || document.activeElement === document.body;
    const focus = this.focusPlace(msg) ?? (!old && resting && myTurn(msg.actions) ? { area: "lost" } : null);
    this.addLog(msg.log);
    this.$(".title").textContent = table.title;
    this.$(".status").textContent = table.status;
    this.timerEnd = msg.timer === null ? null : Date.now() + msg.timer * 1000;
    // Warned of only when the turn had more time than that at its start (a view mid-turn, as a
    // friend's move, keeps a warning already given).
    if (msg.timer === null || msg.timer > WARN_AT) this.timerWarn = msg.timer !== null;
    this.tick();
    this.hinted = null;
    this.$(".hint-box").textContent = "";
    this.drawSeats(table);
    this.drawTrick(table);
    this.drawInfo(table);
    this.drawHand(table, msg.actions);
    this.drawButtons(msg.actions);
    this.drawScores(table);
    this.drawSummary(msg);
    if (msg.trick) this.flyTrick(msg.trick);
    this.restoreFocus(focus);
    this.announce(again ? [] : msg.log, table.status, myTurn(msg.actions));
  }

  // Who is to act is read out only when it is you (each bot's turn would drown the moves), and
  // again when what you are asked changes (Truco's "accept or run" after your card).
  announce(lines, status, mine) {
    const deck = this.viewMsg?.table.deck || "spanish";
    const said = lines.map((text) => spokenLine(text, deck));
    if (mine && (!this.wasMine || status !== this.saidStatus)) said.push(status);
    this.wasMine = mine;
    this.saidStatus = mine ? status : null;
    this.say(said);
  }

  // Lines added to the polite live region, the last twenty kept.
  say(lines) {
    const box = this.$(".announce");
    for (const text of lines) {
      const p = document.createElement("p");
      p.textContent = text;
      box.append(p);
    }
    while (box.children.length > 20) box.firstChild.remove();
  }

  // Where the keyboard was before a redraw replaced the hand and the buttons: they are drawn
  // anew at every move, and a focused card or button that goes leaves the focus on the page's
  // body, the player's place lost. So is a focus in the waiting room when the match starts, or
  // in the summary when a rematch hides it. Focus anywhere else (the log, the tools, the body
  // after a click on the felt) is left where it is.
  focusPlace(msg) {
    const el = document.activeElement;
    const lost = this.refocus;
    this.refocus = false;
    if (this.$(".summary").contains(el)) return msg.result ? null : { area: "lost" };
    for (const area of ["hand", "buttons"]) {
      const box = this.$(`.${area}`);
      if (box.contains(el) && el !== box) {
        const index = [...box.querySelectorAll("button")].indexOf(el);
        return { area, card: el.dataset.card, action: el.dataset.action, index };
      }
    }
    if (this.$(".hand") === el) return { area: "hand", index: 0 };
    return lost ? { area: "lost" } : null;
  }

  // Your turn: the same card or button if you may play it, else the first legal card, else the
  // first button. Not your turn: the same card or button if it is still there, else one near
  // where you were, so that the keys go on from there.
  restoreFocus(place) {
    if (!place || !this.$(".summary").hidden) return;
    const hand = this.$(".hand");
    const cards = [...hand.querySelectorAll("button.card-btn")];
    const buttons = [...this.$(".buttons").querySelectorAll("button")];
    const legal = hand.classList.contains("my-turn") ? cards.filter((c) => c.classList.contains("legal")) : [];
    const acts = buttons.filter((b) => b.classList.contains("act"));
    const same = place.card
      ? cards.find((c) => c.dataset.card === place.card)
      : place.action
        ? buttons.find((b) => b.dataset.action === place.action)
        : null;
    const near = (list) => list[Math.max(0, Math.min(place.index ?? 0, list.length - 1))];
    let target;
    if (legal.length || acts.length) {
      target = same && (legal.includes(same) || acts.includes(same)) ? same : (legal[0] ?? acts[0]);
    } else {
      target = same ?? (place.area === "buttons" ? near(buttons) : null) ?? near(cards) ?? buttons[0] ?? hand;
    }
    if (target === document.activeElement) return;
    // Scrolled only as far as it takes to show it, not to the screen's middle: at the foot of
    // the felt (a phone on its side, a laptop at 200 % zoom) your hand then comes into view with
    // the whole felt above it, where a centred card left the seats across the table off screen.
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // Redraws part of the page with `draw`, the focus kept on the same control when it was
  // inside: the waiting room and the tools are drawn anew at every room message (a friend who
  // sits down, a seat changed from its select), which would throw a keyboard user out.
  keepFocus(box, draw) {
    const key = focusKey(box);
    draw();
    if (key && !box.contains(document.activeElement)) box.querySelector(key)?.focus();
    return key !== null;
  }

  // Your last move taken back, with the bots' answers to it: offered by the view (one person
  // against bots, a move of yours in play); the table comes back as a new view.
  undo() {
    if (this.viewMsg?.undo) this.send({ type: "undo" });
  }

  hint(msg) {
    this.hinted = msg.action;
    const deck = this.viewMsg?.table.deck || "spanish";
    // Shown as the table names its cards elsewhere: French ones with their glyphs, as on the
    // buttons (K♦); Spanish ones by their names, as a refusal in this box says them ("caballo
    // de copas", not the record's 11c). Read out (the box is a live region) all in words.
    const glyphs = (text) =>
      deck === "french" ? String(text).replace(CARD_RE[deck], (card) => cardGlyph(card)) : spokenLine(text, deck);
    const said = `${t("hint")}: ${spokenLine(msg.label, deck)} — ${spokenLine(msg.reason, deck)}`;
    const shown = `${t("hint")}: ${glyphs(msg.label)} — ${glyphs(msg.reason)}`;
    this.$(".hint-box").innerHTML = `<span aria-hidden="true">${escapeHtml(shown)}</span><span class="sr">${escapeHtml(said)}</span>`;
    delete this.$(".hint-box").dataset.rule;
    for (const el of this.root.querySelectorAll("[data-action]")) {
      el.classList.toggle("hinted", el.dataset.action === msg.action);
    }
  }

  // A refusal stays written under the hand until the next hint or refusal: its sentence for
  // people, its code for developers in data-rule (the server's own words are on the console).
  refused(msg) {
    // A move refused is not waited for: the hand and buttons may be played again.
    this.pending = null;
    for (const el of this.root.querySelectorAll(".hand .sent, .buttons .sent")) el.classList.remove("sent");
    const box = this.$(".hint-box");
    box.textContent = spokenLine(msg.text || msg.message, this.viewMsg?.table.deck || "spanish");
    box.dataset.rule = msg.rule;
  }

  // --- drawing -------------------------------------------------------------------------------

  position(seat, radiusX = this.seatRadiusX(), radiusY = this.radiusY ?? 37) {
    const n = this.viewMsg ? this.viewMsg.table.seats.length : this.roomMsg.players;
    const me = this.seat ?? 0;
    const k = (seat - me + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    return [50 + radiusX * Math.cos(angle), 50 + radiusY * Math.sin(angle)];
  }

  // As wide as the felt lets the seats' boxes go (see fitFelt): on a narrow felt the side seats
  // come in, so that their boxes stay on the felt and the screen.
  seatRadiusX() {
    return this.radiusX ?? 38;
  }

  drawSeats(table) {
    const seats = this.$(".seats");
    // On a phone each seat's box is compact (see style.css) at six seats or more, and at any
    // number on its side, where the felt is narrow beside the hand: so that the felt, the
    // trick and your hand share one screen.
    const compact = table.seats.length >= 6 || matchMedia(SIDEWAYS).matches;
    this.$(".felt").classList.toggle("compact", compact);
    const room = this.roomMsg;
    seats.innerHTML = table.seats
      .map((s) => {
        const [x, y] = this.position(s.seat);
        const roomSeat = room?.seats[s.seat];
        const flags = [];
        if (s.dealer) flags.push(`<span class="chip dealer" title="${t("dealer")}">${t("dealer")}</span>`);
        if (roomSeat?.standin) flags.push(`<span class="chip away">${t("a bot stands in")}</span>`);
        else if (roomSeat?.away) flags.push(`<span class="chip away">${t("away")}</span>`);
        // The cards everyone knows are in that hand face up, then the backs of the others.
        const hidden = Math.max(0, s.cards - s.shown.length);
        const count = s.cards === 1 ? t("1 card") : t("{n} cards", { n: s.cards });
        const backs = s.seat === this.seat ? "" : `<div class="backs" role="group" aria-label="${count}">${
          s.shown.map((c) => cardSVG(c, 'class="mini"')).join("") +
          Array.from({ length: Math.min(hidden, 13) }, () => cardSVG(null, 'aria-hidden="true"')).join("")
        }</div>`;
        const team = s.team === null ? "" : ` team${s.team}`;
        return `<div class="seat${s.turn ? " turn" : ""}${s.seat === this.seat ? " me" : ""}${team}" role="group"
            style="left:${x}%;top:${y}%" data-seat="${s.seat}" aria-label="${escapeHtml(isolated(s.name))}${s.turn ? ", " + t("to act") : ""}">
          <div class="name"><span class="who">${personName(s.name)}</span> ${flags.join("")}</div>
          <div class="lines">${s.lines.map((l) => `<span>${escapeHtml(l)}</span>`).join("")}</div>
          ${backs}
        </div>`;
      })
      .join("");
    this.spreadSeats(seats);
    this.fitFelt(seats);
  }

  // Six seats or more can pile onto each other on a short, wide felt (a laptop's screen, large
  // cards): then each seat's card backs go beside its name instead of under it, if that
  // overlaps less.
  spreadSeats(seats) {
    const boxes = [...seats.children];
    seats.classList.remove("crowded");
    // A phone's felt is narrow: seats wider by their cards would only overlap more.
    if (boxes.length < 6 || seats.parentElement.clientWidth <= 600) return;
    const overlap = () => {
      const r = boxes.map((b) => b.getBoundingClientRect());
      let area = 0;
      for (let i = 0; i < r.length; i++) {
        for (let j = i + 1; j < r.length; j++) {
          const w = Math.min(r[i].right, r[j].right) - Math.max(r[i].left, r[j].left);
          const h = Math.min(r[i].bottom, r[j].bottom) - Math.max(r[i].top, r[j].top);
          if (w > 0 && h > 0) area += w * h;
        }
      }
      return area;
    };
    const stacked = overlap();
    if (stacked === 0) return;
    seats.classList.add("crowded");
    if (overlap() >= stacked) seats.classList.remove("crowded");
  }

  // Neither a seat's box nor the trick's cards may lie over another seat or off the felt,
  // whatever the screen and the cards' size (eight seats on a phone, large cards on a laptop's
  // short screen): the side seats spread as wide as the felt allows, tall seats come in from
  // its top and bottom, the trick's cards gather closer to the middle, and only when that is not
  // enough does the felt grow taller (the page scrolls).
  fitFelt(seats) {
    const felt = this.$(".felt");
    const boxes = [...seats.children];
    if (!boxes.length || !felt.clientWidth) return;
    const width = felt.clientWidth;
    const half = Math.max(...boxes.map((b) => b.offsetWidth)) / 2;
    const tallest = Math.max(...boxes.map((b) => b.offsetHeight));
    this.radiusX = Math.max(20, Math.min(38, ((width / 2 - half - 2) / width) * 100));
    const cardW = lengthIn(felt, "calc(var(--card-w) * var(--trick-scale, 1))");
    const trickX = Math.max(4, Math.min(15, (((this.radiusX / 100) * width - half - cardW / 2 - 4) / width) * 100));
    const players = boxes.map((b) => Number(b.dataset.seat));
    const place = (seat, rx, ry, w, h) => {
      const [x, y] = this.position(seat, rx, ry);
      return { x: (x / 100) * width, y: y / 100, w, h };
    };
    const key = `${innerWidth}x${innerHeight}:${cardW}:${players.length}`;
    if (this.feltKey !== key) [this.feltKey, this.feltFloor] = [key, 0];
    felt.style.minHeight = "";
    const base = felt.clientHeight;
    const fits = (height) => {
      this.radiusY = Math.max(20, Math.min(37, 50 - ((tallest / 2 + 4) / height) * 100));
      const seatShapes = boxes.map((b, i) => place(players[i], this.radiusX, this.radiusY, b.offsetWidth, b.offsetHeight));
      if (feltHeightFor(seatShapes, []) > height) return false;
      for (const scale of [1, 0.85, 0.7, 0.55, 0.4, 0.25]) {
        [this.trickRadiusX, this.trickRadiusY] = [trickX * scale, Math.min(17, this.radiusY - 17) * scale];
        const trick = players.map((seat) => place(seat, this.trickRadiusX, this.trickRadiusY, cardW, cardW * 1.5));
        if (feltHeightFor(seatShapes, trick) <= height) return true;
      }
      return false;
    };
    let height = Math.max(base, this.feltFloor);
    while (!fits(height) && height < 4000) height += 10;
    this.feltFloor = height;
    for (const [i, b] of boxes.entries()) {
      const [x, y] = this.position(players[i]);
      [b.style.left, b.style.top] = [`${x}%`, `${y}%`];
    }
    const borders = felt.offsetHeight - felt.clientHeight;
    if (height > base) felt.style.minHeight = `${height + borders}px`;
  }

  // Each card over the one before it, and over the last trick's cards (z-index 1 to 8, see
  // flyTrick): they stay a moment where they were played, and a card led before they have gone
  // lies where its player's last one does.
  drawTrick(table) {
    const trick = this.$(".trick");
    trick.innerHTML = table.trick
      .map((p, i) => {
        const seat = p.seat >= 0 ? p.seat : i;
        const [x, y] = this.position(seat, this.trickRadiusX ?? 15, this.trickRadiusY ?? 17);
        // Said with who played it ("bot 2: 7 of oros"), as the felt shows it by where it lies.
        const who = p.seat >= 0 ? table.seats[p.seat]?.name : null;
        if (!who) return `<div class="played" style="left:${x}%;top:${y}%;z-index:${i + 10}">${cardSVG(p.card)}</div>`;
        // A card played face down (Truco's encoberta) is one no one may see.
        const card = p.card ? cardName(p.card) : t("a card you cannot see");
        return `<div class="played" role="img" aria-label="${escapeHtml(`${isolated(who)}: ${card}`)}" style="left:${x}%;top:${y}%;z-index:${i + 10}">${cardSVG(p.card, 'aria-hidden="true"')}</div>`;
      })
      .join("");
  }

  flyTrick(trick) {
    const layer = this.$(".flying");
    layer.innerHTML = trick.cards
      .map(([seat, card], i) => {
        const [x, y] = this.position(seat, this.trickRadiusX ?? 15, this.trickRadiusY ?? 17);
        return `<div class="played" style="left:${x}%;top:${y}%;z-index:${i + 1}">${cardSVG(card)}</div>`;
      })
      .join("");
    const target = trick.winner === null ? [50, 50] : this.position(trick.winner);
    clearTimeout(this.flyTimer);
    this.flyTimer = setTimeout(() => {
      for (const el of layer.children) {
        el.classList.add("gone");
        el.style.left = `${target[0]}%`;
        el.style.top = `${target[1]}%`;
      }
      this.flyTimer = setTimeout(() => (layer.innerHTML = ""), 550);
    }, 650);
  }

  drawInfo(table) {
    const deck = table.deck;
    const items = table.info.map(([label, value]) => {
      // A fact of cards alone (the vira, the manilhas) is drawn; a name in a fact comes set
      // apart (U+2068 … U+2069), so a declarer called "Ad" is never drawn as the ace.
      const cards = value.match(CARD_RE[deck]);
      const shown =
        cards && cards.join(" ") === value.trim()
          ? cards.map((c) => `<span class="info-card">${cardSVG(c, 'class="mini" aria-hidden="true"')}</span>`).join("") +
            `<span class="sr">${cards.map(cardName).join(", ")}</span>`
          : isolatedNames(escapeHtml(value));
      // A fact with no value (Truco's "mão de onze") is said alone, without a colon.
      if (!value) return `<div><dt class="alone">${escapeHtml(label)}</dt></div>`;
      return `<div><dt>${isolatedNames(escapeHtml(label))}</dt><dd>${shown}</dd></div>`;
    });
    const extra = { ...(table.extra || {}) };
    this.drawBowls(extra.bowls);
    delete extra.bowls;
    delete extra.marks; // the terminal's short bowl names
    delete extra.sung; // and its short cantes (Tute's cantes are among the facts above)
    for (const [key, value] of Object.entries(extra)) {
      const text = Array.isArray(value)
        ? value.map((v) => (Array.isArray(v) ? `${v[0]} ${v[1]}` : v)).join(" · ")
        : typeof value === "object"
          ? Object.entries(value).map(([k, v]) => `${k} ${v}`).join(" · ")
          : value;
      items.push(`<div><dt>${escapeHtml(t(key))}</dt><dd>${escapeHtml(text)}</dd></div>`);
    }
    this.$(".info").innerHTML = items.join("");
  }

  // Poch's board of nine bowls: each bowl's name, its chips, and who took it this round.
  drawBowls(bowls) {
    const box = this.$(".bowls");
    box.hidden = !bowls;
    if (!bowls) return;
    const cells = bowls.map(
      ([name, chips, taker]) =>
        `<td${taker ? ` title="${escapeHtml(isolated(taker))}"` : ""}><span class="bowl-name">${escapeHtml(name)}</span> <strong>${chips}</strong>${taker ? ` <span class="taker">${personName(taker)}</span>` : ""}</td>`,
    );
    const rows = [];
    for (let i = 0; i < cells.length; i += 3) rows.push(`<tr>${cells.slice(i, i + 3).join("")}</tr>`);
    box.innerHTML = `<caption>${escapeHtml(t("bowls"))}</caption>${rows.join("")}`;
  }

  drawHand(table, actions) {
    const hand = this.$(".hand");
    // Cards rise or dim only when playing a card is what the rules ask now (not while bidding).
    const mine = Object.keys(actions.cards).length > 0;
    const cards = table.hand.map((c) => {
      const action = actions.cards[c];
      const cls = mine ? (action ? "legal" : "dim") : "";
      const why = (actions.refused_cards || {})[c];
      // The rule's sentence names cards by their codes ("you hold 4e"): said in words.
      const refused = why ? `${t("not allowed")}: ${spokenLine(why, table.deck)}` : t("not allowed");
      const label = `${cardName(c)}${mine && !action ? `, ${refused}` : ""}`;
      return `<button type="button" class="card-btn ${cls}" data-card="${c}"${action ? ` data-action="${escapeHtml(action)}"` : ""}
          aria-label="${escapeHtml(label)}"${mine && !action ? ` aria-disabled="true" title="${escapeHtml(refused)}" data-why="${escapeHtml(refused)}"` : ""}>${cardSVG(c, 'aria-hidden="true"')}</button>`;
    });
    for (let i = 0; i < table.blind; i++) {
      cards.push(`<span class="card-btn blind" role="img" aria-label="${t("a card you cannot see")}">${cardSVG(null, 'aria-hidden="true"')}</span>`);
    }
    hand.classList.toggle("my-turn", mine);
    // The same hand is left as it is (another seat's move changed nothing of it): drawn anew,
    // the card the keyboard is on would be focused again, and a screen reader read it again at
    // every move. A hand with a move sent is drawn anew all the same, to be played again.
    const html = cards.join("");
    if (html === this.handHtml && hand === this.handBox && !hand.querySelector(".sent")) return;
    this.handHtml = html;
    this.handBox = hand;
    hand.innerHTML = html;
    for (const button of hand.querySelectorAll("button.card-btn")) {
      button.addEventListener("click", () => {
        if (button.dataset.action) this.act(button.dataset.action);
        else if (mine) this.io.toast(button.dataset.why || t("not allowed"));
      });
    }
    this.fanHand();
  }

  // A hand too wide for its row side by side (large cards on a phone) overlaps like a fan in
  // the hand, each card showing a strip of at least TARGET px at its left, where its index is:
  // every card stays a target a finger hits, and the hand takes a row (or a few) rather than
  // pushing the trick off the screen. Later cards lie over earlier ones (see .card-btn).
  fanHand() {
    const hand = this.$(".hand");
    const cards = [...hand.querySelectorAll(".card-btn")];
    hand.classList.remove("fanned");
    hand.style.removeProperty("--strip");
    if (cards.length < 2) return;
    const card = cards[0].offsetWidth;
    const gap = parseFloat(getComputedStyle(hand).columnGap) || 0;
    const room = hand.clientWidth;
    if (!card || !room || cards.length * (card + gap) - gap <= room) return;
    const strip = Math.max(TARGET, Math.min(card, Math.floor((room - card) / (cards.length - 1))));
    hand.style.setProperty("--strip", `${strip}px`);
    hand.classList.add("fanned");
  }

  drawButtons(actions) {
    // What the decision means (what run, pass or a bid does), over the buttons it is about.
    const explain = this.$(".explain");
    explain.textContent = actions.explain || "";
    explain.hidden = !actions.explain;
    const box = this.$(".buttons");
    const deck = this.viewMsg?.table.deck || "spanish";
    // A card in a label ("play K♦ face down", "swap 7o") is named in words to a screen reader.
    const named = (label) => (spokenLine(label, deck) === label ? "" : ` aria-label="${escapeHtml(spokenLine(label, deck))}"`);
    // A bid the rules forbid now (the dealer's hook) is shown struck through in its place among
    // the others; pressing it says why instead of playing.
    const bidOf = (b) => Number((b.action.match(/^bid (\d+)$/) || [])[1] ?? NaN);
    const all = [...actions.buttons, ...(actions.refused || []).map((b) => ({ ...b, refused: true }))];
    if (actions.refused?.length) all.sort((a, b) => (bidOf(a) - bidOf(b)) || 0);
    box.innerHTML = all
      .map((b) =>
        b.refused
          ? `<button type="button" class="refused" aria-disabled="true" title="${escapeHtml(spokenLine(b.why, deck))}" data-why="${escapeHtml(spokenLine(b.why, deck))}"${named(b.label)}><s>${escapeHtml(b.label)}</s></button>`
          : `<button type="button" class="act" data-action="${escapeHtml(b.action)}"${named(b.label)}>${escapeHtml(b.label)}</button>`,
      )
      .join("");
    for (const button of box.querySelectorAll("button.act")) {
      button.addEventListener("click", () => this.act(button.dataset.action));
    }
    for (const button of box.querySelectorAll("button.refused")) {
      button.addEventListener("click", () => (this.$(".hint-box").textContent = button.dataset.why));
    }
  }

  act(action) {
    // The version acted on: a move overtaken by another (several servers) is refused, not
    // played on a table that has moved on.
    // One move a view: a second press before the table answers (Enter twice on a slow line;
    // a pointer cannot, see .sent) would be refused as moved on, after the first was played.
    if (this.pending !== null && this.pending === this.viewMsg?.version) return;
    if (!this.send({ type: "act", action, version: this.viewMsg ? this.viewMsg.version : undefined })) return;
    this.pending = this.viewMsg?.version ?? null;
    for (const el of this.root.querySelectorAll(".hand button, .buttons button")) el.classList.add("sent");
  }

  drawScores(table) {
    const names = table.score_names;
    // A column head is the name without the bot level ("bot 2"); the whole name is its title.
    const head = `<tr><th>#</th>${names.map((n) => `<th scope="col" title="${escapeHtml(isolated(n))}">${personName(n.split(" · ")[0])}</th>`).join("")}</tr>`;
    const rows = table.history
      .map((row, i) => `<tr><th scope="row">${i + 1}</th>${row.map((v) => `<td>${v > 0 ? "+" : ""}${v}</td>`).join("")}</tr>`)
      .join("");
    const total = `<tr class="total"><th scope="row">Σ</th>${table.scores.map((v) => `<td>${v}</td>`).join("")}</tr>`;
    this.$(".scores").innerHTML = `<table><thead>${head}</thead><tbody>${rows}${total}</tbody></table>`;
    turnNarrowHeads(this.$(".scores table"));
    this.$(".chart").innerHTML = scoreChart(names, table.history, t("score chart"));
  }

  drawTools() {
    const room = this.roomMsg;
    const tools = this.$(".tools");
    const parts = [];
    // A hint is for a move: none before the start (the waiting room) or once the match is over.
    const hints = room.hint && room.started && !room.over;
    if (hints) parts.push(`<button type="button" class="hint-btn">${t("hint")}</button>`);
    // Shown by each view, which says whether there is a move of yours to take back now.
    if (hints) parts.push(`<button type="button" class="undo-btn" title="${t("take back your last move")}"${this.viewMsg?.undo ? "" : " hidden"}>${t("undo")}</button>`);
    // Before the start they are in the waiting room, which lies over this panel on a small
    // screen or at 200 % zoom: here, Tab went on to links hidden under it.
    if (room.started) {
      parts.push(`<a data-link href="/rules/${room.game}" target="_blank" rel="noopener">${t("rules")}</a>`);
      parts.push(`<a data-link href="/">${t("lobby")}</a>`);
    }
    if (room.started) {
      parts.push(`<button type="button" class="download link">${t("download the record")}</button>`);
      parts.push(`<a class="replay-link" href="/replay/${room.code}" target="_blank" rel="noopener">${t("replay")}</a>`);
    }
    if (this.seat === null && room.started) parts.push(`<span class="chip">${t("watching")}</span>`);
    // The host's way to take a seat from a person during the match (a bot plays it on): one who
    // stays connected and never plays would otherwise hold up the table for ever. Behind a
    // disclosure, so no one is removed by a stray click.
    const others = room.started && !room.over && room.host ? room.seats.filter((s) => s.kind === "human" && s.seat !== this.seat) : [];
    if (others.length) {
      const buttons = others
        .map((s) => `<button type="button" class="link" data-remove="${s.seat}">${t("remove {name}", { name: personName(s.name) })}</button>`)
        .join(" ");
      parts.push(`<details class="remove-people"${this.removeOpen ? " open" : ""}><summary>${t("remove a player: a bot takes the seat")}</summary>${buttons}</details>`);
    }
    parts.push(fairBox(room.code, room.match, room.seed_hash, room.seed, room.chosen_seed, room.seed_salt));
    tools.innerHTML = parts.join(" ");
    wireFair(tools);
    const people = tools.querySelector(".remove-people");
    people?.addEventListener("toggle", () => (this.removeOpen = people.open));
    for (const button of tools.querySelectorAll("[data-remove]")) {
      button.addEventListener("click", () => this.send({ type: "remove", seat: Number(button.dataset.remove) }));
    }
    tools.querySelector(".hint-btn")?.addEventListener("click", () => this.send({ type: "hint" }));
    tools.querySelector(".undo-btn")?.addEventListener("click", () => this.undo());
    tools.querySelector(".download")?.addEventListener("click", () => this.download());
    for (const a of tools.querySelectorAll('a[target="_blank"]')) a.removeAttribute("data-link");
  }

  drawWaiting() {
    const room = this.roomMsg;
    const box = this.$(".waiting");
    const host = room.host;
    const levelOptions = (chosen) =>
      room.levels
        .map((l) => `<option value="${l}"${l === chosen ? " selected" : ""} title="${escapeHtml(levelHelp(l))}">${t("bot ({level})", { level: t(l) })}</option>`)
        .join("");
    const rows = room.seats
      .map((s) => {
        let control = "";
        if (host && s.kind !== "human") {
          const what = s.kind === "bot" ? ` title="${escapeHtml(levelHelp(s.level))}"` : "";
          control = `<select data-seat="${s.seat}" class="seat-kind" aria-label="${t("seat {n}", { n: s.seat + 1 })}"${what}>
            <option value="open"${s.kind === "open" ? " selected" : ""}>${t("empty seat")}</option>
            ${levelOptions(s.kind === "bot" ? s.level : "")}</select>`;
        } else if (host && s.kind === "human" && s.seat !== room.you) {
          control = `<button type="button" data-remove="${s.seat}">${t("remove")}</button>`;
        }
        if (host && s.kind === "human") {
          control += `<select data-move="${s.seat}" aria-label="${t("move to seat")}"><option value="">${t("move to seat")}</option>${room.seats
            .filter((o) => o.seat !== s.seat)
            .map((o) => `<option value="${o.seat}">${o.seat + 1}</option>`)
            .join("")}</select>`;
        }
        if (!host && room.you === null && s.kind === "open") {
          control = `<button type="button" data-sit="${s.seat}" class="primary">${t("sit here")}</button>`;
        }
        const who = s.kind === "open" ? `<em>${t("empty seat")}</em>` : personName(s.name);
        const mark = s.seat === room.you ? ` (${t("you")})` : "";
        const online = s.kind === "human" ? (s.connected ? " ●" : " ○") : "";
        // Partners choose their seats: each says its side, as the felt will once started.
        const team = s.team === null || s.team === undefined ? "" : ` <span class="chip team">${t("team {n}", { n: s.team + 1 })}</span>`;
        return `<li><span class="n">${s.seat + 1}</span> <span class="who">${who}${mark}${online}</span>${team} ${control}</li>`;
      })
      .join("");
    const link = `${location.origin}/t/${room.code}`;
    // The name comes before the seats' "sit here" buttons: typed in, Tab goes on to a seat.
    box.innerHTML = `
      <h2 tabindex="-1">${t("Waiting room")}</h2>
      <p>${t("Share this link or the code {code} with your friends:", { code: `<strong>${room.code}</strong>` })}
        <input readonly value="${link}" aria-label="${t("link")}"></p>
      ${room.you === null && !host ? `<p><label>${t("Your name")} <input class="join-name" dir="auto" maxlength="24" value="${escapeHtml(localStorage.getItem("tapete:name") || "")}"></label></p>` : ""}
      <ol class="seat-list">${rows}</ol>
      ${host ? `<p class="host-tools"><label>${t("fill the empty seats with")} <select class="fill-level">${levelOptions(room.options.standby)}</select></label>
          <button type="button" class="fill"${room.seats.some((s) => s.kind === "open") ? "" : " disabled"}>${t("fill")}</button>
          <button type="button" class="start primary">${t("Start the match")}</button></p>` : `<p>${t("waiting for the host to start")}</p>`}
      <p class="waiting-links"><a href="/rules/${room.game}" target="_blank" rel="noopener">${t("rules")}</a>
        <a data-link href="/">${t("lobby")}</a></p>`;
    box.querySelector(".start")?.addEventListener("click", () => this.send({ type: "start" }));
    box.querySelector(".fill")?.addEventListener("click", () =>
      this.send({ type: "fill", level: box.querySelector(".fill-level").value }),
    );
    for (const sel of box.querySelectorAll(".seat-kind")) {
      sel.addEventListener("change", () => {
        const seat = Number(sel.dataset.seat);
        this.send(
          sel.value === "open"
            ? { type: "seat", seat, kind: "open" }
            : { type: "seat", seat, kind: "bot", level: sel.value },
        );
      });
    }
    for (const sel of box.querySelectorAll("[data-move]")) {
      sel.addEventListener("change", () => {
        if (sel.value !== "") this.send({ type: "move", seat: Number(sel.dataset.move), to: Number(sel.value) });
      });
    }
    for (const button of box.querySelectorAll("[data-remove]")) {
      button.addEventListener("click", () => this.send({ type: "remove", seat: Number(button.dataset.remove) }));
    }
    for (const button of box.querySelectorAll("[data-sit]")) {
      button.addEventListener("click", () => this.sit(Number(button.dataset.sit)));
    }
  }

  // The server's answer to a request, or null, said, when the network fails it (offline: the
  // request is not made, and a click must not look done nor end in an error on the console).
  async reach(url, init) {
    const response = await offline(() => fetch(url, init));
    if (!response) this.io.toast(t("You are offline: not sent"));
    return response;
  }

  // The record as this seat may have it: fetched with the seat token in a header (never in a
  // URL, where logs and the history would keep it), then saved from a Blob.
  async download() {
    const token = this.io.tokenFor(this.code);
    const response = await this.reach(`/api/tables/${this.code}/record`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    if (!response) return;
    if (!response.ok) {
      const answer = await answerOf(response);
      this.io.toast(refusal(response, answer) || t("not allowed"), refusalCode(response, answer));
      return;
    }
    const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1];
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = name || `tapete-${this.code}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  async sit(seat) {
    const name = (this.$(".join-name")?.value || "").trim();
    localStorage.setItem("tapete:name", name);
    let player;
    try {
      player = await ensurePlayer(name);
    } catch (error) {
      if (!(error instanceof PlayerRefused)) throw error;
      this.io.toast(refusal(error.response, error.answer) || t("not allowed"), refusalCode(error.response, error.answer));
      return;
    }
    // An answer lost on the way (the network gone that moment) is asked for again, with the
    // same join key: the server gives back the seat the first request took, and its token,
    // where a new join would be refused that seat, taken (by this very page).
    const key = joinKey(this.code);
    const response = await askAgain(() =>
      fetch(`/api/tables/${this.code}/join`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, seat, player: player?.token ?? null, key }),
      }),
    );
    if (!response) {
      this.io.toast(t("You are offline: not sent"));
      return;
    }
    const answer = await answerOf(response);
    if (!response.ok) {
      this.io.toast(refusal(response, answer) || t("not allowed"), refusalCode(response, answer));
      return;
    }
    this.io.saveToken(this.code, answer.token);
    localStorage.removeItem(`tapete:join:${this.code}`);
    this.io.reconnect();
  }

  drawSummary(msg) {
    const box = this.$(".summary");
    const result = msg.result;
    // A summary closed stays closed for its match (every room message draws it again: someone
    // who leaves, a watcher who comes), and a button among the actions opens it again.
    this.$(".buttons .reopen-summary")?.remove();
    if (result && this.closedMatch === msg.match) {
      box.hidden = true;
      this.$(".layout").inert = false;
      this.$(".buttons").insertAdjacentHTML(
        "beforeend",
        `<button type="button" class="reopen-summary">${t("Match over")}</button>`,
      );
      this.$(".buttons .reopen-summary").onclick = () => {
        this.closedMatch = null;
        this.reopened = true; // closed again, the keyboard comes back to this button
        this.drawSummary(this.viewMsg);
      };
      return;
    }
    const opening = box.hidden && !!result;
    box.hidden = !result;
    // The felt, the hand and the side panel under the dialog are out of reach while it is open:
    // on a small screen or at 200 % zoom it covers them, and Tab went on to links hidden under
    // it. The dialog has the record, the replay, the lobby and the scores itself.
    this.$(".layout").inert = !!result;
    if (!result) return;
    const key = focusKey(box);
    const table = msg.table;
    const room = this.roomMsg;
    const rows = table.score_names.map((n, i) => `<tr><th scope="row">${personName(n)}</th><td>${table.scores[i]}</td></tr>`).join("");
    const seated = room && room.you !== null;
    box.innerHTML = `
      <h2 id="summary-title">${t("Match over")}</h2>
      <div id="summary-result"><p class="winners">${t(result.names.length > 1 ? "winners: {names}" : "{names} won", { names: result.names.map(personName).join(", ") })}</p>
      ${result.why ? `<p class="why">${escapeHtml(result.why)}</p>` : ""}</div>
      <p class="summary-actions">${seated ? `<button type="button" class="rematch primary">${t("rematch")}</button>` : ""}
        ${room && room.records > 0 ? `<a href="/api/tables/${room.code}/records/${room.records - 1}" download>${t("download the record")}</a>
          <a class="replay-link" href="/replay/${room.code}?match=${room.records - 1}" target="_blank" rel="noopener">${t("replay")}</a>
          <a class="review-link button" href="/replay/${room.code}?match=${room.records - 1}&review=1" target="_blank" rel="noopener">${t("review this match")}</a>` : ""}
        <a href="/" data-link>${t("lobby")}</a>
        ${room ? `<a href="/leaderboard/${room.game}" data-link class="board-link">${t("leaderboards")}</a>` : ""}
        <button type="button" class="close-summary">${t("close")}</button></p>
      <table class="final">${rows}</table>
      ${scoreChart(table.score_names, table.history, t("score chart"))}
      <p class="profiles">${t("Profile")}: ${(room?.seats || [])
        .filter((s) => s.player && !s.player.startsWith("guest:"))
        .map((s) => `<a data-link href="/players/${encodeURIComponent(s.player)}">${personName(s.name)}</a>`)
        .join(" · ")}</p>
      ${room && room.seed !== null ? fairBox(room.code, room.match, room.seed_hash, room.seed, room.chosen_seed, room.seed_salt) : ""}`;
    wireFair(box);
    // The match it follows: pressed by two players at once, the second is the same rematch.
    box.querySelector(".rematch")?.addEventListener("click", () => this.send({ type: "rematch", match: msg.match }));
    box.querySelector(".close-summary").addEventListener("click", () => this.closeSummary());
    // The end of the match is a dialog: the keyboard goes into it (its first button: the
    // rematch, or close for a spectator), and stays on the same control when it is redrawn.
    const again = key && box.querySelector(key);
    if (again) again.focus();
    else if (opening || key) box.querySelector("button")?.focus();
  }

  closeSummary() {
    const box = this.$(".summary");
    if (box.hidden) return;
    this.closedMatch = this.viewMsg?.match ?? null;
    this.drawSummary(this.viewMsg);
    // Back where the keyboard opened it from: the button among the actions, else (it opened by
    // itself at the end of the match) the table's title.
    const opener = this.reopened ? this.$(".buttons .reopen-summary") : null;
    this.reopened = false;
    (opener ?? this.$(".title")).focus();
  }

  addLog(lines) {
    const list = this.$(".log");
    const deck = this.viewMsg?.table.deck || "spanish";
    for (const text of lines) {
      const li = document.createElement("li");
      li.innerHTML = isolatedNames(cardChips(escapeHtml(text), deck));
      list.append(li);
    }
    while (list.children.length > 120) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  tick() {
    const box = this.$(".timer");
    if (this.timerEnd === null) {
      box.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round((this.timerEnd - Date.now()) / 1000));
    box.textContent = `⏱ ${t("{n} s", { n: left })}`;
    box.classList.toggle("urgent", left <= 5);
    // The clock is silent to a screen reader (a second at a time would drown the moves), so a
    // turn of yours that runs low is said once, while there is still time to play.
    if (left <= WARN_AT && left > 0 && this.timerWarn && myTurn(this.viewMsg.actions)) {
      this.timerWarn = false;
      this.say([t("{n} seconds left to play", { n: left })]);
    }
  }

  // --- keyboard ------------------------------------------------------------------------------

  onKey(event) {
    if (event.target.matches("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const cards = [...this.root.querySelectorAll(".hand button.card-btn")];
    const buttons = [...this.root.querySelectorAll(".buttons button")];
    const row = buttons.includes(document.activeElement) ? buttons : cards;
    if (event.key === "Escape" && !this.$(".summary").hidden) {
      this.closeSummary();
      event.preventDefault();
    } else if (/^[1-9]$/.test(event.key)) {
      cards[Number(event.key) - 1]?.focus();
      event.preventDefault();
    } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      const i = row.indexOf(document.activeElement);
      if (i >= 0) {
        const next = row[(i + (event.key === "ArrowRight" ? 1 : row.length - 1)) % row.length];
        next.focus();
        event.preventDefault();
      }
    } else if (event.key === "h" || event.key === "H") {
      if (this.roomMsg?.hint && this.roomMsg.started && !this.roomMsg.over) this.send({ type: "hint" });
    } else if (event.key === "u" || event.key === "U") {
      this.undo();
    } else if (event.key === "b" || event.key === "B") {
      this.root.querySelector(".buttons button")?.focus();
    }
  }
}

// The felt's height that keeps every seat inside it and apart from the other seats and from the
// trick's cards: positions are fractions of the height, so each pair that meets across says how
// tall the felt must be for them to part (seats level with each other part across instead).
function feltHeightFor(seats, cards) {
  const gap = 4;
  let needed = 0;
  for (const [i, a] of seats.entries()) {
    needed = Math.max(needed, (a.h / 2 + gap) / a.y, (a.h / 2 + gap) / (1 - a.y));
    for (const b of [...seats.slice(i + 1), ...cards]) {
      const apart = Math.abs(a.y - b.y);
      if (Math.abs(a.x - b.x) >= (a.w + b.w) / 2 || apart < 0.01) continue;
      needed = Math.max(needed, ((a.h + b.h) / 2 + gap) / apart);
    }
  }
  return Math.ceil(needed);
}

// Eight seats leave each score column too narrow for a name: rather than break "bot 2" into
// "bo", "t 2", the heads turn upright, each word whole (the title and the cell's text keep the
// whole name for a pointer and a screen reader).
function turnNarrowHeads(table) {
  table.classList.add("measuring");
  const narrow = [...table.querySelectorAll("thead th[scope=col]")].some((th) => th.scrollWidth > th.clientWidth + 1);
  table.classList.remove("measuring");
  table.classList.toggle("turned", narrow);
}
