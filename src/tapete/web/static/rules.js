// A game's rules: its how-to page (tapete/howto) or its reference page (docs/rules/<game>.md),
// Markdown rendered to HTML (a small subset: headings, paragraphs, lists, tables, code, emphasis,
// links).

import { gameSummary, lang, t } from "./i18n.js";
import { escapeHtml } from "./lobby.js";

function inline(text) {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, href) =>
      /^(https?:|\/|#)/.test(href) ? `<a href="${href}">${label}</a>` : label,
    );
}

export function markdown(source) {
  const out = [];
  const lines = source.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const level = line.match(/^#+/)[0].length;
      out.push(`<h${level}>${inline(line.slice(level + 1))}</h${level}>`);
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(lines[i]);
      const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
      out.push(
        `<table>${body
          .map((r, k) => `<tr>${cells(r).map((c) => (k === 0 ? `<th>${inline(c)}</th>` : `<td>${inline(c)}</td>`)).join("")}</tr>`)
          .join("")}</table>`,
      );
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line);
      const items = [];
      for (; i < lines.length && (/^\s*([-*]|\d+\.) /.test(lines[i]) || /^\s{2,}\S/.test(lines[i])); i++) {
        if (/^\s*([-*]|\d+\.) /.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.) /, ""));
        else items[items.length - 1] += " " + lines[i].trim();
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((it) => `<li>${inline(it)}</li>`).join("")}</${tag}>`);
    } else if (line.trim() === "") {
      i++;
    } else {
      const para = [];
      for (; i < lines.length && lines[i].trim() !== "" && !/^(#|```|\s*\||\s*([-*]|\d+\.) )/.test(lines[i]); i++) para.push(lines[i]);
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

// The how-to page in the page's language; a button swaps it for the full reference page (as
// implemented, in that language; in English, with a note and the game's summary, where it has no
// translation yet: the server's Content-Language says) and back. The full page is
// /rules/GAME?full=1, so it can be bookmarked, shared and reloaded, and Back returns to the how-to
// page.
function rulesPath(game, full) {
  return `/rules/${game}${full ? "?full=1" : ""}`;
}

export async function renderRules(root, game, full = false) {
  const query = `lang=${encodeURIComponent(lang())}${full ? "&full=true" : ""}`;
  const response = await fetch(`/api/rules/${game}?${query}`);
  const text = response.ok ? await response.text() : t("No rules page for this game.");
  const english = full && lang() !== "en" && response.headers.get("Content-Language") !== lang();
  const summary = english ? gameSummary(game, "") : "";
  const note = english
    ? "The rules as implemented, from the project's rules page (in English)."
    : "The rules as implemented, from the project's rules page.";
  root.innerHTML = `<article class="rules-page">
    <p><a href="/" data-link>← ${t("lobby")}</a></p>
    <p><button type="button" id="rules-toggle">${t(full ? "How to play" : "Full rules, as implemented")}</button></p>
    ${full ? `<p class="note">${t(note)}</p>` : ""}
    ${summary ? `<p class="game-summary"><strong>${escapeHtml(summary)}</strong></p>` : ""}
    ${markdown(text)}</article>`;
  root.querySelector("#rules-toggle").addEventListener("click", () => {
    history.pushState({}, "", rulesPath(game, !full));
    renderRules(root, game, !full);
  });
}
