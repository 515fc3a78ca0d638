// Players: a name and an identity token kept in this browser (localStorage; no password), a
// profile page (/players/ID: matches, results, per-game ratings; bots too, as bot:LEVEL) and a
// leaderboard per game (/leaderboard/GAME).

import { formatNumber, t } from "./i18n.js";
import { answerOf, askAgain, backToLobby, escapeHtml, newKey, personName } from "./lobby.js";

const KEY = "tapete:player";
// The creation key of a player asked for whose answer has not come yet.
const MAKING = "tapete:player-key";

export function savedPlayer() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    return null;
  }
}

// A new player the server refused (a rate limit, a database away): the page tells it and makes
// or joins no table, whose results would otherwise go to nobody without a word.
export class PlayerRefused extends Error {
  constructor(response, answer) {
    super(`player refused: ${response.status}`);
    this.response = response;
    this.answer = answer;
  }
}

// The player this browser plays as, created (or renamed) to `name`; null when the server keeps
// no players (it runs without a database) or cannot be reached. Throws PlayerRefused when the
// server refuses to make one.
export async function ensurePlayer(name) {
  let me = savedPlayer();
  let refused = null;
  try {
    if (me && name && me.name !== name) {
      const response = await fetch("/api/players/me", {
        method: "PUT",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${me.token}` },
        body: JSON.stringify({ name }),
      });
      if (response.ok) me = { ...me, name: (await response.json()).name };
      else if (response.status === 404) me = null;
    }
    if (!me) {
      // An answer lost on the way is asked for again with the same creation key, kept until
      // the player comes back: the server gives back the player the first request made,
      // where a new one would be made beside it.
      const key = localStorage.getItem(MAKING) || newKey();
      localStorage.setItem(MAKING, key);
      const response = await askAgain(() =>
        fetch("/api/players", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          // A person who gave no name is named in their language on their profile and the boards.
          body: JSON.stringify({ name: name || t("player"), key }),
        }),
      );
      if (!response) return me;
      if (!response.ok) {
        const answer = await answerOf(response);
        if (answer.rule === "no-database") return null;
        refused = new PlayerRefused(response, answer);
      } else {
        me = await response.json();
        localStorage.removeItem(MAKING);
      }
    }
  } catch {
    return me;
  }
  if (refused) throw refused;
  localStorage.setItem(KEY, JSON.stringify(me));
  return me;
}

export function playerBar(games) {
  const me = savedPlayer();
  const boards = games.map((g) => `<a data-link href="/leaderboard/${g.name}">${escapeHtml(g.title)}</a>`).join(" · ");
  return `<p class="player-bar">${me ? `${t("You play as {name}", { name: `<strong>${personName(me.name)}</strong>` })}
      · <a data-link class="my-profile" href="/players/${encodeURIComponent(me.id)}">${t("your profile")}</a> · ` : ""}
    ${t("leaderboards")}: ${boards}</p>`;
}

// A participant's link; `twins` holds the names shown more than once on the page, which get a
// short id after them (two players called Ana are not the same Ana).
function who(row, twins = new Set()) {
  const id = row.participant;
  const name = shownName(id, row.name);
  const suffix = twins.has(lookalike(name)) ? ` <span class="short-id">#${escapeHtml(id.replace(/^bot:/, "").slice(0, 6))}</span>` : "";
  return `<a data-link href="/players/${encodeURIComponent(id)}">${personName(name)}${suffix}</a>`;
}

// A bot is known to the server as bot:LEVEL; people read it as the lobby's seats name it, in
// their language ("bot (difícil)").
function shownName(participant, name) {
  const level = /^bot:(\w+)$/.exec(participant)?.[1];
  return level ? t("bot ({level})", { level: t(level) }) : name || participant;
}

// What a name looks like to a reader: "ANA", "ana" and a full-width "Ａｎａ" pass for one another,
// and a name with a zero-width joiner for the name without it, so each is told apart by its id
// as exact twins are (the server's name_key, at a table).
function lookalike(name) {
  const short = name.normalize("NFKC").split("\u00b7")[0].replace(/[\u200c\u200d]/g, "");
  return short.toLowerCase().trim().replace(/\s+/g, " ");
}

function twinNames(rows) {
  const seen = new Map();
  for (const r of rows) {
    const key = lookalike(shownName(r.participant, r.name));
    seen.set(key, (seen.get(key) || 0) + 1);
  }
  return new Set([...seen].filter(([, n]) => n > 1).map(([key]) => key));
}

// Each game's name as a person reads it ("Oh Hell" for oh_hell), asked of the server once; a
// name it does not list (a game since removed) is shown as it is.
let titles = null;
async function gameTitles() {
  titles ??= fetch("/api/games")
    .then((r) => (r.ok ? r.json() : []))
    .then((games) => new Map(games.map((g) => [g.name, g.title])))
    .catch(() => new Map());
  return titles;
}

// `participant`: a player id or bot:LEVEL; null for an address that names nobody.
export async function renderProfile(root, participant) {
  const response = participant === null ? null : await fetch(`/api/players/${encodeURIComponent(participant)}`);
  if (!response?.ok) {
    root.innerHTML = `<section class="profile-page"><h1>${t("Profile")}</h1><p>${t("No such player.")}</p>${backToLobby()}</section>`;
    return;
  }
  const p = await response.json();
  const named = await gameTitles();
  const title = (game) => escapeHtml(named.get(game) ?? game);
  const ratings = Object.entries(p.ratings)
    .map(([game, r]) => `<tr><th scope="row"><a data-link href="/leaderboard/${encodeURIComponent(game)}">${title(game)}</a></th>
      <td class="rating">${formatNumber(r.ordinal)}</td><td>${formatNumber(r.mu)} ± ${formatNumber(r.sigma)}</td><td>${r.matches}</td></tr>`)
    .join("");
  // A web table's match is ROOM.N: its record is served at its table's address, also once the
  // table has expired (the database keeps it). Any other id (a terminal game's) is shown as is.
  const recordLink = (id) => {
    if (id === null) return "—";
    const m = /^([A-Z0-9]+)\.(\d+)$/.exec(id);
    return m ? `<a href="/api/tables/${m[1]}/records/${m[2]}" download>${escapeHtml(id)}</a>` : escapeHtml(id);
  };
  const results = p.results
    .map((r) => `<tr><td>${title(r.game)}</td><td>${recordLink(r.table_id)}</td><td>${r.score}</td>
      <td>${r.won ? t("won") : t("lost")}</td><td>${escapeHtml(String(r.finished_at).slice(0, 16).replace("T", " "))}</td></tr>`)
    .join("");
  root.innerHTML = `
    <section class="profile-page">
      <h1>${t("Profile")}: <span class="who">${personName(shownName(participant, p.name))}</span></h1>
      <p><span class="played">${t("matches played")}: <strong>${p.matches}</strong></span> ·
        <span class="wins">${t("wins")}: <strong>${p.wins}</strong></span></p>
      <h2>${t("ratings")}</h2>
      ${ratings ? `<table class="ratings"><thead><tr><th>${t("Game")}</th><th>${t("rating")}</th><th>μ ± σ</th><th>${t("matches")}</th></tr></thead><tbody>${ratings}</tbody></table>` : `<p>${t(p.matches ? "No rated matches yet: a match with a move taken back is not rated." : "No matches yet.")}</p>`}
      <h2>${t("results")}</h2>
      ${results ? `<table class="results"><thead><tr><th>${t("Game")}</th><th>${t("table")}</th><th>${t("score")}</th><th></th><th></th></tr></thead><tbody>${results}</tbody></table>` : `<p>${t("No matches yet.")}</p>`}
    </section>`;
}

export async function renderLeaderboard(root, game) {
  const response = await fetch(`/api/leaderboard/${encodeURIComponent(game)}`);
  const rows = response.ok ? await response.json() : [];
  const twins = twinNames(rows);
  const title = (await gameTitles()).get(game) ?? game;
  root.innerHTML = `
    <section class="leaderboard-page">
      <h1>${t("Leaderboard: {game}", { game: escapeHtml(title) })}</h1>
      ${rows.length ? `<table class="leaderboard"><thead><tr><th>${t("rank")}</th><th>${t("player")}</th><th>${t("rating")}</th><th>${t("matches")}</th></tr></thead><tbody>
        ${rows.map((r, i) => `<tr><td>${i + 1}</td><td>${who(r, twins)}</td><td class="rating">${formatNumber(r.ordinal)}</td><td>${r.matches}</td></tr>`).join("")}
      </tbody></table>` : `<p>${t("No rated matches yet.")}</p>`}
    </section>`;
}
