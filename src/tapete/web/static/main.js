// tapete in the browser: routing, preferences, and the one WebSocket with its one switch.
//
// Pages: "/" the lobby, "/t/CODE" a table, "/rules/GAME" a rules page ("?full=1": its full
// reference), "/replay/CODE" a replay, "/players/ID" a profile, "/leaderboard/GAME" a
// leaderboard.
// At a table the server sends typed JSON messages (docs/protocol.md); `receive` handles each
// type in one switch.

import { LANGS, browserLang, keepLang, lang, loadLang, ruleText, t } from "./i18n.js";
import { installSprite } from "./cards.js";
import { backToLobby, escapeHtml, renderLobby } from "./lobby.js";
import { renderLeaderboard, renderProfile } from "./players.js";
import { renderReplay } from "./replay.js";
import { renderRules } from "./rules.js";
import { TableView } from "./table.js";

const app = document.getElementById("app");
let socket = null;
let table = null;
let code = null;
let retry = 0;
let leaving = false;

// A network that drops without a word (a phone out of coverage, Wi-Fi gone) leaves the socket
// open as far as the browser knows, for minutes: the table would sit still, a card clicked
// would go nowhere, and nothing would say why. So the page asks the server every few seconds
// and, hearing nothing for a while, says the connection is lost and opens a new one.
const PING_EVERY = 3000;
const SILENCE = 8000;
// The wait before the next attempt after a lost connection: 0.5 s, 1 s, 2 s, then 2.5 s at
// most, each drawn between half and all of it so that the pages of a server just back do not
// all come at once. A blip of the network costs a player a moment, not the 8 s of a longer
// doubling; the browser's `online` and a tab shown again try at once (see below).
const RETRY_FIRST = 500;
const RETRY_MOST = 2500;

function retryDelay(attempt) {
  const wait = Math.min(RETRY_MOST, RETRY_FIRST * 2 ** (attempt - 1));
  return wait / 2 + Math.random() * (wait / 2);
}

export function tokenFor(tableCode) {
  return localStorage.getItem(`tapete:token:${tableCode}`);
}

export function saveToken(tableCode, token) {
  localStorage.setItem(`tapete:token:${tableCode}`, token);
}

export function navigate(path) {
  history.pushState({}, "", path);
  window.scrollTo(0, 0); // a new page starts at its top, not where the lobby was scrolled to
  route();
}

// One sentence for people, in their language; `help` (words for people too) in its tooltip. A
// refusal's code and the server's own words (English, for developers) stay out of the way: in
// the toast's data-rule and data-detail, and on the console.
export function toast(text, { help = "", rule = "", detail = "" } = {}) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.title = help;
  box.dataset.rule = rule;
  box.dataset.detail = detail;
  if (rule) console.info(`tapete: refused (${rule}): ${detail}`);
  box.classList.add("shown");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("shown"), 4000);
}

// --- the connection ---------------------------------------------------------------------------

// Whether the message went (to the browser's side of the connection, at least): offline it is
// not kept to be sent later, and the caller says so rather than let a click look made.
export function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  socket = ws;
  let heard = Date.now();
  let asked = null; // when the ping still unanswered was sent
  let pinging = null;
  const closed = () => {
    clearInterval(pinging);
    clearTimeout(opening);
    if (socket !== ws || leaving) return;
    table?.connected(false);
    retry += 1;
    setTimeout(() => socket === ws && connect(), retryDelay(retry));
  };
  // A dead socket's close waits on the network too: it is let go at once, unheard.
  const dead = () => {
    ws.onclose = ws.onmessage = ws.onopen = null;
    ws.close();
    closed();
  };
  // Silence is counted from a ping sent, not from the last message: a tab in the background
  // may run its timers once a minute, and a quiet table is not a lost one.
  const ping = () => {
    if (socket !== ws) return clearInterval(pinging);
    if (asked === null || heard >= asked) {
      asked = Date.now();
      send({ type: "ping", t: asked });
    } else if (Date.now() - asked > SILENCE) dead();
  };
  const opening = setTimeout(() => ws.readyState === WebSocket.CONNECTING && dead(), SILENCE);
  ws.dead = dead;
  ws.onopen = () => {
    clearTimeout(opening);
    heard = Date.now();
    table?.connected(true);
    send({ type: "hello", code, token: tokenFor(code), lang: lang() });
    pinging = setInterval(ping, PING_EVERY);
  };
  ws.onmessage = (event) => {
    heard = Date.now();
    receive(JSON.parse(event.data));
  };
  ws.onclose = closed;
}

// The browser knows when the device loses its network (Wi-Fi gone, airplane mode) though the
// socket does not: the page says so at once, and a click then is not sent into a dead socket.
// Back online, it reconnects at once rather than at the end of its wait between attempts; so
// does a tab shown again (a phone unlocked, a tab come back to), whose timers the browser
// slowed or stopped while it was hidden: the table is there when the person looks.
window.addEventListener("offline", () => {
  if (socket && table && !leaving) socket.dead?.();
});
function reconnectNow() {
  if (!table || leaving || socket?.readyState === WebSocket.OPEN) return;
  retry = 0;
  reconnect();
}
window.addEventListener("online", reconnectNow);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") reconnectNow();
});

export function reconnect() {
  const old = socket;
  socket = null;
  old?.close();
  connect();
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      // The table is reached (not at the opening: a server that cannot show it turns a new
      // connection away at once, and would be asked again every second by every page).
      retry = 0;
      // Forgotten only when the server refuses it (it names no seat, even after the server read
      // the table again): a seat just taken is never thrown away on a welcome that came too soon.
      if (msg.refused && tokenFor(code)) localStorage.removeItem(`tapete:token:${code}`);
      table.welcome(msg);
      break;
    case "room":
      table.room(msg);
      break;
    case "view":
      table.view(msg);
      break;
    case "hint":
      table.hint(msg);
      break;
    case "error":
      if (msg.rule === "no-such-table") {
        noSuchTable();
        break;
      }
      if (msg.rule === "unavailable") {
        // Not a refusal of something done here: the table is away for a moment, and the
        // banner says so until it is back (the server closes the connection; the page retries).
        table.unavailable(msg.text || msg.message);
        break;
      }
      toast(msg.text || ruleText(msg.rule, msg.message), { rule: msg.rule, detail: msg.message });
      table.refused(msg);
      break;
    case "pong":
      break;
    default:
      console.warn("unknown message", msg);
  }
}

// --- pages ------------------------------------------------------------------------------------

function leaveTable() {
  leaving = true;
  const old = socket;
  socket = null;
  old?.close();
  table?.destroy();
  table = null;
  code = null;
}

// A code that names no table (mistyped, or a table gone with its server): the page says so, with
// the way back to the lobby, and stops knocking.
function noSuchTable() {
  const wanted = code;
  leaveTable();
  // A table gone (expired, removed) takes its seats with it: its seat token is not kept in the
  // browser for nothing, to be read by whoever uses this browser next.
  localStorage.removeItem(`tapete:token:${wanted}`);
  app.innerHTML = `<section class="missing-page">
    <h1>${t("No such table")}</h1>
    <p>${t("There is no table with the code {code}.", { code: `<strong>${escapeHtml(wanted)}</strong>` })}</p>
    ${backToLobby()}
  </section>`;
}

// A part of the address with its %XX escapes undone; null when they are not valid UTF-8 (such an
// address names nobody, rather than stopping the page).
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function route() {
  const path = location.pathname;
  const atTable = path.match(/^\/t\/([A-Za-z0-9]+)/);
  const rules = path.match(/^\/rules\/(\w+)/);
  const replay = path.match(/^\/replay\/([A-Za-z0-9]+)/);
  const profile = path.match(/^\/players\/([^/]+)/);
  const board = path.match(/^\/leaderboard\/(\w+)/);
  if (atTable) {
    const wanted = atTable[1].toUpperCase();
    if (code === wanted && table) return;
    leaveTable();
    leaving = false;
    code = wanted;
    table = new TableView(app, code, { send, reconnect, navigate, toast, saveToken, tokenFor });
    connect();
    return;
  }
  leaveTable();
  if (replay) {
    const wanted = replay[1].toUpperCase();
    const match = new URLSearchParams(location.search).get("match");
    renderReplay(app, wanted, match === null ? null : Number(match), tokenFor(wanted));
  } else if (profile) renderProfile(app, decoded(profile[1]));
  else if (board) renderLeaderboard(app, board[1]);
  else if (rules) renderRules(app, rules[1], new URLSearchParams(location.search).get("full") === "1");
  else renderLobby(app, { navigate, saveToken, toast });
}

function translateStatic() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  document.getElementById("lang").setAttribute("aria-label", t("language"));
}

function setupPrefs() {
  const select = document.getElementById("lang");
  select.innerHTML = LANGS.map(([c, name]) => `<option value="${c}">${name}</option>`).join("");
  select.value = lang();
  select.addEventListener("change", async () => {
    await loadLang(select.value);
    // Only a person's choice is remembered: a page that opened in its browser's language
    // and saved it could undo a choice made meanwhile in another tab.
    keepLang(lang());
    translateStatic();
    if (table) {
      send({ type: "lang", lang: lang() });
      table.relabel();
    } else {
      route();
    }
  });
  for (const [id, cls] of [["large-cards", "large"], ["contrast", "contrast"]]) {
    const box = document.getElementById(id);
    box.checked = localStorage.getItem(`tapete:${id}`) === "1";
    document.body.classList.toggle(cls, box.checked);
    box.addEventListener("change", () => {
      localStorage.setItem(`tapete:${id}`, box.checked ? "1" : "0");
      document.body.classList.toggle(cls, box.checked);
      table?.refit();
    });
  }
  let refitting = false;
  window.addEventListener("resize", () => {
    if (refitting) return;
    refitting = true;
    requestAnimationFrame(() => {
      refitting = false;
      table?.refit();
    });
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-link]");
    if (link && link.origin === location.origin && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      navigate(link.pathname);
    }
  });
  window.addEventListener("popstate", route);
}

async function boot() {
  installSprite();
  await loadLang(browserLang());
  translateStatic();
  setupPrefs();
  route();
}

boot();
