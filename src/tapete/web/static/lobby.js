// The lobby: create a table (game, every parameter with its default, seats), join by code,
// and the list of open public tables to join or watch.

import { formatNumber, gameSummary, lang, levelHelp, optionWords, ruleText, t } from "./i18n.js";
import { PlayerRefused, ensurePlayer, playerBar } from "./players.js";

// The table form sent last whose table has not come back yet, and its creation key.
const CREATING = "tapete:creating";

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

// A log line (HTML, escaped already) with the names the narrator set apart (between U+2068
// FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: a name that could reorder its line,
// tapete.narrate.isolated) each in a <bdi>, as personName sets a name apart.
export function isolatedNames(html) {
  return html.replace(/\u2068([^\u2068\u2069]*)\u2069/g, "<bdi>$1</bdi>");
}

// A person's name amid the page's words, set apart (<bdi>): a Hebrew or Arabic name reads
// right to left on its own, rather than carry its neighbours with it ("שלום, דנה" listed
// the second person first) or take their commas and numbers into its own run.
export function personName(name) {
  return `<bdi>${escapeHtml(name)}</bdi>`;
}

// The characters that can move the text around them in a left-to-right line, as
// tapete.present.isolated counts them: right-to-left scripts' letters (Hebrew, Arabic, Syriac,
// Thaana, N'Ko and the rest), Arabic-Indic digits, and the explicit embeddings, overrides and
// isolates (JavaScript's patterns know no bidirectional classes: these are their blocks).
const REORDERING = /[\u0590-\u08ff\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

// A person's name in plain text, where no <bdi> goes (an aria-label, a tooltip, an option): set
// apart between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE when it could
// reorder the text around it ("سارة: 5" showed her score before her name, "سارة!" its "!" at
// the wrong end), as the server writes names into its lines; any other name as it is, so what a
// screen reader says of it is unchanged.
export function isolated(name) {
  return REORDERING.test(name) ? `\u2068${name}\u2069` : name;
}

// The way back from a page that found nothing to show (an unknown table or player).
export function backToLobby() {
  return `<p class="back"><a data-link href="/">${t("Back to the lobby")}</a></p>`;
}

let refresh = null;
let lobbyPage = 1;

// What to tell a person whose request the server refused: a rate limit in their language, with
// the seconds to wait (Retry-After); otherwise its rule's sentence in their language (a refused
// game's options, "bad-spec", come in it already: the server's words then); "" when the server
// named no rule and gave no sentence.
export function refusal(response, answer) {
  if (response.status === 429) {
    const seconds = Number(response.headers.get("Retry-After")) || 60;
    return t("Too many requests from your address: try again in {seconds} s.", { seconds });
  }
  const detail = typeof answer?.detail === "string" ? answer.detail : "";
  return answer?.rule ? ruleText(answer.rule, detail) : detail;
}

// A refusal's code and the server's words for developers (the toast keeps them out of sight).
export function refusalCode(response, answer) {
  const detail = answer?.detail;
  return {
    rule: answer?.rule || `http-${response.status}`,
    detail: typeof detail === "string" ? detail : JSON.stringify(detail ?? response.statusText),
  };
}

// A refused request's body; {} when it is not JSON (a proxy's page, say).
// The response `request` gets, or null when the network fails it (offline, a connection cut):
// the caller says so or waits for its next turn, rather than end in an error on the console.
export async function offline(request) {
  try {
    return await request();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return null;
  }
}

// The waits (ms) before asking again for a request safe to ask again whose answer never came.
export const RETRIES = [500, 1500];

// A key for a request safe to ask again (a join, a table, a player: docs/protocol.md): 16
// random bytes in the token alphabet. Asked again with it, the request is the same one, and
// gets back what the first made, where its answer was lost on the way.
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// The answer to `request` (a fetch with a key), asked again after each of RETRIES while the
// network gives none (`offline`); null when it never came.
export async function askAgain(request) {
  let response = await offline(request);
  for (const wait of RETRIES) {
    if (response) break;
    await new Promise((done) => setTimeout(done, wait));
    response = await offline(request);
  }
  return response;
}

export async function answerOf(response) {
  try {
    return await response.json();
  } catch {
    return {};
  }
}

export async function renderLobby(root, { navigate, saveToken, toast }) {
  clearInterval(refresh);
  const games = await (await fetch("/api/games")).json();
  games.sort((a, b) => (a.name === "pocha" ? -1 : b.name === "pocha" ? 1 : 0));
  const name = localStorage.getItem("tapete:name") || "";
  // `required` lets a name of only spaces through (the server would make it "player 1"): the
  // pattern asks for one character that is not a space, and the browser says so in its bubble.
  root.innerHTML = `
  <section class="lobby">
    ${playerBar(games)}
    <div class="panel create">
      <h1>${t("New table")}</h1>
      <form id="create">
        <label class="row">${t("Your name")}
          <input name="name" dir="auto" maxlength="24" autocomplete="nickname" value="${escapeHtml(name)}" required
            pattern=".*\\S.*" title="${t("A name, not only spaces")}"></label>
        <label class="row">${t("Game")}
          <select name="game">${games
            .map((g) => `<option value="${g.name}">${escapeHtml(g.title)} — ${escapeHtml(gameSummary(g.name, g.summary))}</option>`)
            .join("")}</select></label>
        <p class="rules-link"><a data-link id="rules-link" href="#">${t("Read the rules")}</a></p>
        <fieldset id="seats"><legend>${t("Seats")}</legend></fieldset>
        <details id="params"><summary>${t("Rule options")}</summary><div class="grid"></div></details>
        <details id="table-options"><summary>${t("Table options")}</summary><div class="grid">
          <label><input type="checkbox" name="public" checked> ${t("listed in the lobby")}</label>
          <label>${t("turn timer (seconds, 0: none)")} <input type="number" name="turn_timer" min="0" max="600" value="0"></label>
          <label>${t("seconds before a bot stands in for a player who left")} <input type="number" name="grace" min="0" max="600" value="20"></label>
          <label>${t("bot speed (seconds a move)")} <input type="text" inputmode="decimal" name="bot_delay" value="${formatNumber(0.7)}" aria-describedby="bot-delay-error"></label>
          <p id="bot-delay-error" class="field-error" role="alert" hidden>${t("The bot speed is a number of seconds from 0 to 5 (like 0.15).")}</p>
        </div></details>
        <button type="submit" class="primary">${t("Create table")}</button>
      </form>
    </div>
    <div class="panel side">
      <h2>${t("Join a table")}</h2>
      <form id="join" class="inline">
        <input name="code" maxlength="8" placeholder="${t("code")}" aria-label="${t("code")}" autocapitalize="characters" required>
        <button type="submit">${t("Go")}</button>
      </form>
      <div class="mine" hidden>
        <h2>${t("Your tables")}</h2>
        <ul class="tables my-tables"></ul>
      </div>
      <h2>${t("Open tables")}</h2>
      <ul id="tables" class="tables" aria-live="polite"></ul>
      <nav class="pager" hidden>
        <button type="button" class="prev-page">← ${t("previous page")}</button>
        <span class="page-of"></span>
        <button type="button" class="next-page">${t("next page")} →</button>
      </nav>
    </div>
  </section>`;

  const form = root.querySelector("#create");
  const select = form.elements.game;
  const seats = root.querySelector("#seats");
  const params = root.querySelector("#params .grid");
  let game = games[0];

  function seatCount() {
    const players = params.querySelector('[name="p:players"]');
    const n = players && players.value ? Number(players.value) : game.players;
    return Number.isFinite(n) && n > 0 && n <= 10 ? n : game.players;
  }

  function drawSeats() {
    const n = seatCount();
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    const options = [
      ["human", t("a friend")],
      ...game.levels.map((level) => [`bot:${level}`, t("bot ({level})", { level: t(level) })]),
    ];
    // Each option says what its level does (a tooltip), and the chosen one says it under the
    // select, read with it by a screen reader: "hard" alone tells a newcomer nothing.
    const help = (value) => (value.startsWith("bot:") ? levelHelp(value.slice(4)) : "");
    let html = `<legend>${t("Seats")}</legend>`;
    for (let i = 0; i < n; i++) {
      if (i === 0) {
        html += `<div class="seat-row"><span>${t("seat {n}", { n: 1 })}</span><strong>${t("you")}</strong></div>`;
        continue;
      }
      const chosen = old[i - 1] || `bot:${game.levels.includes("medium") ? "medium" : "random"}`;
      // Named by its label's words alone, the level's help its description: the label holds
      // the help too, and a screen reader read it twice ("seat 2 counts the cards …, counts …").
      html += `<label class="seat-row"><span id="seat${i}-name">${t("seat {n}", { n: i + 1 })}</span><select name="seat${i}" aria-labelledby="seat${i}-name" aria-describedby="seat${i}-help">${options
        .map(([v, label]) => `<option value="${v}"${v === chosen ? " selected" : ""}${help(v) ? ` title="${escapeHtml(help(v))}"` : ""}>${label}</option>`)
        .join("")}</select><small class="help level-help" id="seat${i}-help">${escapeHtml(help(chosen))}</small></label>`;
    }
    seats.innerHTML = html;
    for (const choice of seats.querySelectorAll("select")) {
      choice.addEventListener("change", () => {
        seats.querySelector(`#${choice.name}-help`).textContent = help(choice.value);
      });
    }
  }

  function drawParams() {
    params.innerHTML = game.params
      .map((p) => {
        const id = `p:${p.name}`;
        const words = optionWords(p.name);
        // The field is named by the option's label and described by its help (both in the
        // <label>, which alone would name it by the two run together): the option's name as a
        // spec writes it (the rules pages and the command line do), then what it does, the same
        // words as the terminal's new match screen.
        const key = `opt-${p.name}`;
        const said = words.help ? `: ${escapeHtml(words.help)}` : "";
        const help = `<small class="help" id="${key}-help"><code>${escapeHtml(p.name)}</code>${said}</small>`;
        const aria = `aria-labelledby="${key}-name" aria-describedby="${key}-help"`;
        const name = `<span id="${key}-name">${escapeHtml(words.label)}</span>`;
        const title = `title="${escapeHtml(p.name)}"`;
        if (typeof p.default === "boolean") {
          return `<label class="option" ${title}><span><input type="checkbox" name="${id}"${p.default ? " checked" : ""} data-default="${p.default}" ${aria}> ${name}</span>${help}</label>`;
        }
        const shown = Array.isArray(p.default) ? `[${p.default.join(", ")}]` : p.default === null ? "none" : p.default;
        return `<label class="option" ${title}>${name} <input name="${id}" value="${escapeHtml(shown)}" data-default="${escapeHtml(shown)}" ${aria}>${help}</label>`;
      })
      .join("");
    const players = params.querySelector('[name="p:players"]');
    players?.addEventListener("input", drawSeats);
  }

  function chooseGame() {
    game = games.find((g) => g.name === select.value) || games[0];
    root.querySelector("#rules-link").href = `/rules/${game.name}`;
    drawParams();
    drawSeats();
  }
  select.addEventListener("change", chooseGame);
  chooseGame();

  // Bot speed: any number of seconds from 0 to 5 (0.15 too), said plainly when it is not.
  const delayField = form.elements.bot_delay;
  const delayError = root.querySelector("#bot-delay-error");
  function botDelay() {
    const text = delayField.value.trim().replace(",", ".");
    const value = text === "" ? 0 : /^\d*\.?\d+$|^\d+\.$/.test(text) ? Number(text) : NaN;
    const ok = Number.isFinite(value) && value >= 0 && value <= 5;
    delayError.hidden = ok;
    delayField.setAttribute("aria-invalid", ok ? "false" : "true");
    return ok ? value : null;
  }
  delayField.addEventListener("input", botDelay);

  // The browser words a field it refuses (a name left empty, a timer of 9999) in its own
  // language, which need not be the page's: each field says what it takes in the page's.
  const said = [
    ["name", "A name, not only spaces"],
    ["turn_timer", "The turn timer is a whole number of seconds from 0 to 600 (0: none)."],
    ["grace", "The wait before a bot stands in is a whole number of seconds from 0 to 600."],
  ];
  for (const [name, text] of said) {
    const field = form.elements[name];
    const judge = () => {
      field.setCustomValidity("");
      if (!field.validity.valid) field.setCustomValidity(t(text));
    };
    field.addEventListener("input", judge);
    judge();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const delay = botDelay();
    if (delay === null) {
      root.querySelector("#table-options").open = true;
      delayField.focus();
      return;
    }
    const data = new FormData(form);
    const given = {};
    for (const input of params.querySelectorAll("input")) {
      input.removeAttribute("aria-invalid"); // judged anew by this submission
      const key = input.name.slice(2);
      if (input.type === "checkbox") {
        if (String(input.checked) !== input.dataset.default) given[key] = input.checked;
      } else if (input.value.trim() !== input.dataset.default) {
        given[key] = input.value.trim();
      }
    }
    const seatList = [{ kind: "human" }];
    for (let i = 1; i < seatCount(); i++) {
      const value = data.get(`seat${i}`) || "bot:random";
      seatList.push(value === "human" ? { kind: "human" } : { kind: "bot", level: value.slice(4) });
    }
    const you = String(data.get("name")).trim();
    localStorage.setItem("tapete:name", you);
    let player;
    try {
      player = await ensurePlayer(you);
    } catch (error) {
      if (!(error instanceof PlayerRefused)) throw error;
      toast(refusal(error.response, error.answer) || t("not allowed"), refusalCode(error.response, error.answer));
      return;
    }
    const body = {
      player: player?.token ?? null,
      game: game.name,
      params: given,
      seats: seatList,
      name: you,
      public: data.get("public") === "on",
      turn_timer: Number(data.get("turn_timer")) || 0,
      grace: Number(data.get("grace")) || 0,
      bot_delay: delay,
    };
    // An answer lost on the way is asked for again with the same creation key: the server
    // gives back the table the first request made, where a new one would be made beside it
    // and the first one's token lost. The same form sent again (a click again, the page
    // reloaded) keeps its key until a table comes back; another form is another table.
    const sent = JSON.stringify(body);
    let pending = null;
    try {
      pending = JSON.parse(sessionStorage.getItem(CREATING) || "null");
    } catch {
      pending = null;
    }
    if (pending?.sent !== sent) {
      pending = { sent, key: newKey() };
      sessionStorage.setItem(CREATING, JSON.stringify(pending));
    }
    // The page's language: a refusal of the rules comes back in it.
    const response = await askAgain(() =>
      fetch(`/api/tables?lang=${lang()}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ...body, key: pending.key }),
      }),
    );
    if (!response) {
      toast(t("You are offline: not sent"));
      return;
    }
    const answer = await answerOf(response);
    if (!response.ok) {
      // Two options judged together are named as one, "suits/ranks": each is a field.
      const named = typeof answer.param === "string" ? answer.param.split("/") : [];
      const fields = named.map((p) => params.querySelector(`[name="p:${CSS.escape(p)}"]`)).filter(Boolean);
      if (fields.length) {
        // The rules refused one option: it is pointed at, named as its field is, and the
        // server says why in the page's language (what the option accepts); its help line
        // stays in the toast's tooltip.
        root.querySelector("#params").open = true;
        for (const field of fields) field.setAttribute("aria-invalid", "true");
        fields[0].focus();
        const words = named.map((p) => optionWords(p));
        const label = words.map((w) => w.label).join(" / ");
        toast(`${label}: ${refusal(response, answer)}`, { help: words[0].help, ...refusalCode(response, answer) });
        return;
      }
      toast(refusal(response, answer) || t("Check the options"), refusalCode(response, answer));
      return;
    }
    sessionStorage.removeItem(CREATING);
    saveToken(answer.code, answer.token);
    navigate(`/t/${answer.code}`);
  });

  root.querySelector("#join").addEventListener("submit", (event) => {
    event.preventDefault();
    const wanted = event.target.elements.code.value.trim().toUpperCase();
    if (wanted) navigate(`/t/${wanted}`);
  });

  // One page of the open tables (the server sends at most a page, and how many pages there are).
  let drawn = null;
  async function listTables() {
    const list = root.querySelector("#tables");
    if (!list) return clearInterval(refresh);
    // Offline, the list shown stays as it is until the next refresh reaches the server.
    const response = await offline(() => fetch(`/api/tables?page=${lobbyPage}&lang=${lang()}`));
    if (!response?.ok) return;
    const { tables, page, pages } = await response.json();
    if (page > pages) {
      lobbyPage = pages; // the tables of the last page went away
      return listTables();
    }
    // Written only when it changed: the list is a live region, and a screen reader would read
    // every open table out again at each refresh.
    const html = tables.length
      ? tables
          .map(
            (r) => `<li><a data-link href="/t/${r.code}"><strong>${r.code}</strong> ${escapeHtml(r.title)}
              <span>${r.humans.map(personName).join(", ") || "—"}</span>
              <em>${r.status === "waiting" ? freeSeats(r.open) : t("watch")}</em></a></li>`,
          )
          .join("")
      : `<li class="empty">${t("No open tables yet: create one!")}</li>`;
    if (html !== drawn) {
      list.innerHTML = html;
      drawn = html;
    }
    const pager = root.querySelector(".pager");
    pager.hidden = pages <= 1;
    pager.querySelector(".page-of").textContent = t("page {page} of {pages}", { page, pages });
    // Marked, not disabled: a disabled button drops the focus to the page's body, and the
    // keyboard that paged to the first or the last page would lose its place.
    pager.querySelector(".prev-page").setAttribute("aria-disabled", String(page <= 1));
    pager.querySelector(".next-page").setAttribute("aria-disabled", String(page >= pages));
  }
  const go = (button, step) =>
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-disabled") === "true") return;
      lobbyPage = Math.max(1, lobbyPage + step);
      listTables();
    });
  go(root.querySelector(".prev-page"), -1);
  go(root.querySelector(".next-page"), +1);
  listTables();
  refresh = setInterval(listTables, 5000);
  listMine(root);
}

// The tables this browser holds a seat at (their seat tokens) and that are not over: whoever
// closed the tab of a table the lobby does not list (not public) finds the way back to it. Asked
// once a visit: a table gone (404) takes its token with it, and is not asked for again.
async function listMine(root) {
  const prefix = "tapete:token:";
  const codes = Object.keys(localStorage).filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
  const rows = [];
  for (const code of codes) {
    const response = await fetch(`/api/tables/${encodeURIComponent(code)}?lang=${lang()}`);
    if (response.status === 404) localStorage.removeItem(prefix + code);
    if (!response.ok) continue;
    const table = await response.json();
    if (table.status !== "over") rows.push(table);
  }
  const box = root.querySelector(".mine");
  if (!box || !rows.length) return;
  box.querySelector(".my-tables").innerHTML = rows
    .map(
      (r) => `<li><a data-link href="/t/${escapeHtml(r.code)}"><strong>${escapeHtml(r.code)}</strong> ${escapeHtml(r.title)}
        <span>${r.humans.map(personName).join(", ") || "—"}</span></a></li>`,
    )
    .join("");
  box.hidden = false;
}

function freeSeats(n) {
  return n === 1 ? t("1 free seat") : t("{n} free seats", { n });
}
