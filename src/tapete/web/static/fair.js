// Fair dealing, checked in the browser: the SHA-256 of the salt and seed (SubtleCrypto) against
// the hash the server published when the match began, and the server's check that every deal
// follows from the seed (GET /api/tables/CODE/verify/MATCH, the same check as
// `tapete replay --verify`).

import { t } from "./i18n.js";
import { answerOf, escapeHtml, refusal, refusalCode } from "./lobby.js";

export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The text whose SHA-256 a table publishes (tapete.record.seed_commitment): "SALT:SEED", or the
// seed alone for a match from before salts.
export function committed(seed, salt) {
  return salt ? `${salt}:${seed}` : `${seed}`;
}

// The fair-dealing box: the published hash, the seed and its salt once revealed, and a "check"
// button; and, from the start, a warning when the host chose the seed (the deals follow from it
// all the same).
export function fairBox(code, match, seedHash, seed, chosen = false, salt = null) {
  const hidden = seed === null || seed === undefined;
  const revealed = hidden
    ? `<em>${t("revealed when the match is over")}</em>`
    : `<code class="seed">${seed}</code>`;
  const salted = !hidden && salt
    ? `<div><dt>${t("salt")}</dt><dd><code class="seed-salt">${escapeHtml(salt)}</code></dd></div>`
    : "";
  return `<div class="fair" data-code="${escapeHtml(code)}" data-match="${match}">
      <h3>${t("Fair dealing")}</h3>
      <dl><div><dt>${t("seed SHA-256")}</dt><dd><code class="seed-hash">${escapeHtml(seedHash)}</code></dd></div>
      <div><dt>${t("seed")}</dt><dd>${revealed}</dd></div>${salted}</dl>
      ${chosen ? `<p class="bad chosen-seed">⚠ ${t("The host chose this match's seed, so could know every hand")}</p>` : ""}
      ${seed === null || seed === undefined ? "" : `<button type="button" class="check-deal">${t("check the deal")}</button>`}
      <ul class="fair-result" aria-live="polite"></ul>
    </div>`;
}

// The hash this browser saw while the match was still to be played: the check compares the
// revealed seed with it, not with what the server says at the end.
export function rememberHash(code, match, seedHash, over) {
  const key = `tapete:seed-hash:${code}:${match}`;
  if (!over && seedHash && !localStorage.getItem(key)) localStorage.setItem(key, seedHash);
  return localStorage.getItem(key);
}

export function wireFair(root) {
  for (const box of root.querySelectorAll(".fair")) {
    box.querySelector(".check-deal")?.addEventListener("click", () => checkDeal(box));
  }
}

async function checkDeal(box) {
  const out = box.querySelector(".fair-result");
  out.innerHTML = `<li>${t("checking…")}</li>`;
  const seed = box.querySelector(".seed").textContent.trim();
  const salt = box.querySelector(".seed-salt")?.textContent.trim() ?? null;
  const published = box.querySelector(".seed-hash").textContent.trim();
  const seenBefore = localStorage.getItem(`tapete:seed-hash:${box.dataset.code}:${box.dataset.match}`);
  const lines = [];
  if (seenBefore && seenBefore !== published) {
    lines.push(`<li class="bad hash-changed">✘ ${t("The hash shown before the match was {hash}", { hash: escapeHtml(seenBefore) })}</li>`);
  } else if (seenBefore) {
    lines.push(`<li class="ok hash-seen">✔ ${t("This browser saw the same SHA-256 before the match")}</li>`);
  }
  try {
    const hashed = await sha256Hex(committed(seed, salt));
    lines.push(hashed === published
      ? `<li class="ok hash-ok">✔ ${t("The seed hashes to the published SHA-256 (checked in your browser)")}</li>`
      : `<li class="bad hash-bad">✘ ${t("The seed does not hash to the published SHA-256!")}</li>`);
  } catch {
    lines.push(`<li class="bad">${t("your browser cannot compute SHA-256 here")}</li>`);
  }
  const response = await fetch(`/api/tables/${box.dataset.code}/verify/${box.dataset.match}`);
  if (!response.ok) {
    // A check refused (a rate limit, a server away) is no finding about the deals: said as
    // such, never as deals that do not follow from the seed.
    const refused = await answerOf(response);
    const why = refusal(response, refused);
    const { rule, detail } = refusalCode(response, refused);
    console.info(`tapete: refused (${rule}): ${detail}`);
    lines.push(`<li class="bad deals-unchecked" data-rule="${escapeHtml(rule)}">${t("The deals could not be checked")}${why ? `: ${escapeHtml(why)}` : ""}</li>`);
    out.innerHTML = lines.join("");
    return;
  }
  const answer = await response.json();
  if (answer.chosen_seed) lines.push(`<li class="bad chosen-seed">✘ ${t("The host chose this match's seed, so could know every hand")}</li>`);
  lines.push(answer.ok
    ? `<li class="ok deals-ok">✔ ${t("Every deal follows from the seed (checked by the server)")}</li>`
    : `<li class="bad deals-bad">✘ ${t("The deals do not follow from the seed!")} ${answer.problems.map(escapeHtml).join("; ")}</li>`);
  out.innerHTML = lines.join("");
}
