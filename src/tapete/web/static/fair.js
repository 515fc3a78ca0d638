// Fair dealing, checked in the browser: the SHA-256 of the salt and seed (SubtleCrypto) against
// the hash the server published when the match began, and the server's check that every deal
// follows from the seed (GET /api/tables/CODE/verify/MATCH, the same check as
// `tapete replay --verify`).

import { t } from "./i18n.js";
import { answerOf, escapeHtml, refusal, refusalCode } from "./lobby.js";

// The SHA-256 of `text`'s UTF-8 bytes, in lowercase hex. A page over plain http (a server on the
// home network, http://192.168.1.5:8000) is no secure context and has no SubtleCrypto: there it
// is worked out here, so the check is made in the browser on every server.
export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (!globalThis.crypto?.subtle) return sha256Here(bytes);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// FIPS 180-4's constants: the first 32 bits of the fractional parts of the cube roots of the
// first 64 primes, and (the initial hash) of the square roots of the first 8.
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

// SHA-256 (FIPS 180-4) of `bytes` (fewer than 2^29 of them: a seed and its salt are 50).
function sha256Here(bytes) {
  const padded = new Uint8Array(((bytes.length + 8) >> 6) * 64 + 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const data = new DataView(padded.buffer);
  data.setUint32(padded.length - 4, bytes.length * 8); // the length in bits, big-endian
  const hash = [...H0];
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = data.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, h].forEach((v, i) => (hash[i] = (hash[i] + v) | 0));
  }
  return hash.map((v) => (v >>> 0).toString(16).padStart(8, "0")).join("");
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
