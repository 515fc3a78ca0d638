// Playing cards drawn as SVG: the Spanish deck (oros, copas, espadas, bastos) and the French deck.
// Suits are drawn shapes, never letters; court cards are little figures (sota, caballo, rey;
// jack, queen, king). Every card is one <svg> using symbols from a sprite added once to the page.

import { cardGlyph, cardName, isFrench } from "./i18n.js";

// A card's code in the server's words ("Ana plays 3b"), by the deck of the table.
export const CARD_RE = {
  spanish: /\b(1[0-2]|[1-9])([oceb])\b/g,
  french: /\b([2-9TJQKA])([cdhs])\b/g,
};

// A log line, already HTML-escaped, with each card a chip: drawn, written as the page writes
// it (K♦, caballo de copas: cardGlyph), and its name in the page's language for a screen reader
// (the table's log and the replay's alike).
export function cardChips(html, deck) {
  return outsideNames(html, (part) => part.replace(CARD_RE[deck], (card) => `<span class="chip card-chip" title="${cardName(card)}">${cardSVG(card, 'class="mini" aria-hidden="true"')}<span class="sr">${cardName(card)}</span><span aria-hidden="true">${cardGlyph(card)}</span></span>`));
}

// `text` with `change` made to each part outside a name the server set apart between U+2068
// and U+2069 (tapete.present.isolated): a player called "Ad" or "Leo 3b" stays a name, never
// a card.
function outsideNames(text, change) {
  return String(text)
    .split(/(\u2068[^\u2068\u2069]*\u2069)/)
    .map((part, i) => (i % 2 ? part : change(part)))
    .join("");
}

// A French card as the screens print it, with its suit's glyph (K♦, 10♥): a button's label
// (Truco's "play K♦ face down"), a hint.
const GLYPH_RE = /(10|[2-9JQKA])([♣♦♥♠])/g;
const SUIT_OF = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" };

// A line as a screen reader hears it: each card by its name in the page's language, whether
// written as its code (3e) or with its glyph (K♦), which would be read out as "3e" or "K black
// diamond suit".
export function spokenLine(text, deck) {
  return outsideNames(text, (part) =>
    part
      .replace(CARD_RE[deck], (card) => cardName(card))
      .replace(GLYPH_RE, (whole, rank, glyph) => cardName(`${rank === "10" ? "T" : rank}${SUIT_OF[glyph]}`)),
  );
}

const INK = {
  o: "#b8860b", c: "#b3202a", e: "#22508f", b: "#2f6b2a", // Spanish
  fc: "#1b1b1b", fd: "#c0262d", fh: "#c0262d", fs: "#1b1b1b", // French
};

const SPRITE = `
<svg xmlns="http://www.w3.org/2000/svg" style="position:absolute;width:0;height:0" aria-hidden="true">
<defs>
  <pattern id="card-back" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <rect width="12" height="12" fill="#1d4e89"/>
    <rect width="6" height="12" fill="#255c9e"/>
  </pattern>
  <symbol id="pip-s-o" viewBox="0 0 100 100">
    <circle cx="50" cy="50" r="44" fill="#f2c230" stroke="#8a6100" stroke-width="5"/>
    <circle cx="50" cy="50" r="30" fill="#f7d660" stroke="#b07d00" stroke-width="4"/>
    <path d="M50 26 L55 45 L74 50 L55 55 L50 74 L45 55 L26 50 L45 45 Z" fill="#b07d00"/>
    <circle cx="50" cy="50" r="7" fill="#c0262d" stroke="#8a6100" stroke-width="2"/>
  </symbol>
  <symbol id="pip-s-c" viewBox="0 0 100 100">
    <path d="M16 12 H84 C84 46 70 60 50 62 C30 60 16 46 16 12 Z" fill="#c0262d" stroke="#6d1016" stroke-width="4"/>
    <path d="M16 12 H84 V20 H16 Z" fill="#f2c230" stroke="#6d1016" stroke-width="3"/>
    <path d="M30 34 C34 44 40 50 50 52" fill="none" stroke="#f27c82" stroke-width="4" stroke-linecap="round"/>
    <rect x="43" y="60" width="14" height="20" fill="#f2c230" stroke="#6d1016" stroke-width="3"/>
    <ellipse cx="50" cy="86" rx="27" ry="9" fill="#f2c230" stroke="#6d1016" stroke-width="4"/>
  </symbol>
  <symbol id="pip-s-e" viewBox="0 0 100 100">
    <path d="M50 2 L58 15 L58 64 L42 64 L42 15 Z" fill="#dbe6f5" stroke="#1c3f7a" stroke-width="3.5" stroke-linejoin="round"/>
    <line x1="50" y1="14" x2="50" y2="60" stroke="#7f9cc8" stroke-width="3"/>
    <rect x="24" y="63" width="52" height="9" rx="4" fill="#2a5aa8" stroke="#1c3f7a" stroke-width="3"/>
    <rect x="45" y="72" width="10" height="16" fill="#8a5a2b" stroke="#1c3f7a" stroke-width="2.5"/>
    <circle cx="50" cy="92" r="6" fill="#2a5aa8" stroke="#1c3f7a" stroke-width="2.5"/>
  </symbol>
  <symbol id="pip-s-b" viewBox="0 0 100 100">
    <g transform="rotate(-28 50 50)">
      <path d="M44 97 C42 72 35 42 33 16 C38 2 62 2 67 16 C65 42 58 72 56 97 Z" fill="#86a94a" stroke="#35501a" stroke-width="4" stroke-linejoin="round"/>
      <path d="M50 8 C46 30 46 60 49 92" fill="none" stroke="#b9d27c" stroke-width="3"/>
      <circle cx="39" cy="30" r="5" fill="#35501a"/>
      <circle cx="61" cy="44" r="5" fill="#35501a"/>
      <circle cx="42" cy="62" r="4.5" fill="#35501a"/>
      <circle cx="57" cy="20" r="4" fill="#35501a"/>
      <circle cx="56" cy="76" r="3.5" fill="#35501a"/>
    </g>
  </symbol>
  <symbol id="pip-f-h" viewBox="0 0 100 100">
    <path d="M50 90 C20 66 6 48 6 30 C6 15 17 6 30 6 C40 6 47 12 50 21 C53 12 60 6 70 6 C83 6 94 15 94 30 C94 48 80 66 50 90 Z" fill="#c0262d"/>
  </symbol>
  <symbol id="pip-f-d" viewBox="0 0 100 100">
    <path d="M50 3 L86 50 L50 97 L14 50 Z" fill="#c0262d"/>
  </symbol>
  <symbol id="pip-f-s" viewBox="0 0 100 100">
    <path d="M50 4 C80 32 94 45 94 60 C94 74 84 82 72 82 C63 82 56 78 53 71 C54 82 58 90 66 97 H34 C42 90 46 82 47 71 C44 78 37 82 28 82 C16 82 6 74 6 60 C6 45 20 32 50 4 Z" fill="#1b1b1b"/>
  </symbol>
  <symbol id="pip-f-c" viewBox="0 0 100 100">
    <circle cx="50" cy="27" r="20" fill="#1b1b1b"/>
    <circle cx="27" cy="58" r="20" fill="#1b1b1b"/>
    <circle cx="73" cy="58" r="20" fill="#1b1b1b"/>
    <path d="M45 45 H55 C55 72 58 86 68 97 H32 C42 86 45 72 45 45 Z" fill="#1b1b1b"/>
  </symbol>
</defs>
</svg>`;

export function installSprite() {
  if (!document.getElementById("card-sprite")) {
    const holder = document.createElement("div");
    holder.id = "card-sprite";
    holder.innerHTML = SPRITE;
    document.body.prepend(holder);
  }
}

// Where the pips of a number card go (card is 120 x 180).
const L = 40, M = 60, R = 80;
const LAYOUTS = {
  1: [[M, 90]],
  2: [[M, 46], [M, 134]],
  3: [[M, 46], [M, 90], [M, 134]],
  4: [[L, 46], [R, 46], [L, 134], [R, 134]],
  5: [[L, 46], [R, 46], [M, 90], [L, 134], [R, 134]],
  6: [[L, 46], [R, 46], [L, 90], [R, 90], [L, 134], [R, 134]],
  7: [[L, 46], [R, 46], [M, 68], [L, 90], [R, 90], [L, 134], [R, 134]],
  8: [[L, 46], [R, 46], [M, 68], [L, 90], [R, 90], [M, 112], [L, 134], [R, 134]],
  9: [[L, 44], [R, 44], [L, 74], [R, 74], [M, 90], [L, 106], [R, 106], [L, 136], [R, 136]],
  10: [[L, 44], [R, 44], [M, 59], [L, 74], [R, 74], [L, 106], [R, 106], [M, 121], [L, 136], [R, 136]],
};

const FRENCH_RANKS = { A: 1, T: 10, J: 11, Q: 12, K: 13 };

function parse(card) {
  const suit = card.slice(-1);
  const rankText = card.slice(0, -1);
  if (isFrench(card)) {
    const value = FRENCH_RANKS[rankText] ?? Number(rankText);
    const label = rankText === "T" ? "10" : rankText;
    return { pip: `pip-f-${suit}`, ink: INK[`f${suit}`], value, label, court: value >= 11 && value <= 13 ? value : 0 };
  }
  const value = Number(rankText);
  return { pip: `pip-s-${suit}`, ink: INK[suit], value, label: rankText, court: value >= 10 ? value - 10 + 11 : 0 };
}

function use(pip, x, y, size, flip = false) {
  const h = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#${pip}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${turn}/>`;
}

function corners(c) {
  const index = (x, y) =>
    `<text x="${x}" y="${y}" text-anchor="middle" font-family="Georgia, serif" font-weight="700" font-size="19" fill="${c.ink}">${c.label}</text>` +
    use(c.pip, x, y + 13, 14);
  return index(13, 22) + `<g transform="rotate(180 60 90)">${index(13, 22)}</g>`;
}

// A court card: a little figure; court is 11 (sota / jack), 12 (caballo / queen) or 13 (rey / king).
function figure(c, french) {
  const ink = c.ink;
  const skin = "#f3cfa6";
  let s = `<rect x="24" y="30" width="72" height="120" rx="5" fill="${ink}" fill-opacity="0.08" stroke="${ink}" stroke-width="1.5"/>`;
  const horse = !french && c.court === 12;
  if (horse) {
    s +=
      `<ellipse cx="56" cy="122" rx="25" ry="12" fill="#9a6a3a" stroke="#3b2412" stroke-width="1.5"/>` +
      `<path d="M74 118 L86 96 L94 100 L90 108 L82 124 Z" fill="#9a6a3a" stroke="#3b2412" stroke-width="1.5"/>` +
      `<path d="M84 96 L82 88 L88 94 Z" fill="#3b2412"/>` +
      `<path d="M36 130 L33 147 M46 132 L45 147 M66 132 L67 147 M76 128 L79 147" stroke="#3b2412" stroke-width="3" stroke-linecap="round"/>` +
      `<path d="M31 118 C24 122 24 132 28 138" fill="none" stroke="#3b2412" stroke-width="3"/>`;
    s +=
      `<path d="M46 90 L58 84 L68 90 L70 118 L44 118 Z" fill="${ink}" stroke="#222" stroke-width="1.5"/>` +
      `<circle cx="57" cy="76" r="9" fill="${skin}" stroke="#222" stroke-width="1.2"/>` +
      `<path d="M48 72 Q57 60 66 72 Z" fill="${ink}" stroke="#222" stroke-width="1"/>` +
      use(c.pip, 78, 82, 20);
    return s;
  }
  // A standing figure in a robe of the suit's colour, holding the suit's sign.
  s +=
    `<path d="M44 84 L60 78 L76 84 L84 146 L36 146 Z" fill="${ink}" stroke="#222" stroke-width="1.5"/>` +
    `<path d="M52 84 L60 100 L68 84" fill="none" stroke="#f2c230" stroke-width="3"/>` +
    `<rect x="40" y="118" width="40" height="5" fill="#f2c230" opacity="0.8"/>` +
    `<circle cx="60" cy="66" r="12" fill="${skin}" stroke="#222" stroke-width="1.2"/>` +
    `<circle cx="56" cy="65" r="1.4" fill="#222"/><circle cx="64" cy="65" r="1.4" fill="#222"/>` +
    `<path d="M56 71 Q60 74 64 71" fill="none" stroke="#7a3b2e" stroke-width="1.3"/>`;
  if (c.court === 13) {
    // A king: crown and beard.
    s +=
      `<path d="M47 56 L47 42 L53 49 L60 39 L67 49 L73 42 L73 56 Z" fill="#f2c230" stroke="#8a6100" stroke-width="1.5"/>` +
      `<path d="M50 70 Q60 86 70 70 Q66 80 60 81 Q54 80 50 70 Z" fill="#6b4a2a"/>`;
  } else if (c.court === 12) {
    // A queen: a small crown and long hair.
    s +=
      `<path d="M47 62 C44 78 46 88 50 92 M73 62 C76 78 74 88 70 92" fill="none" stroke="#5a3a1a" stroke-width="5" stroke-linecap="round"/>` +
      `<path d="M50 56 L50 47 L55 52 L60 45 L65 52 L70 47 L70 56 Z" fill="#f2c230" stroke="#8a6100" stroke-width="1.3"/>`;
  } else {
    // A page (sota, jack): a cap with a feather.
    s +=
      `<path d="M46 60 Q52 46 66 50 L76 56 L46 60 Z" fill="${ink}" stroke="#222" stroke-width="1.2"/>` +
      `<path d="M66 50 Q78 38 84 44" fill="none" stroke="#f2c230" stroke-width="3" stroke-linecap="round"/>`;
  }
  s += use(c.pip, 80, 104, 22);
  return s;
}

// The SVG markup of one card ("7e", "Kh"); null or "" draws the back.
export function cardSVG(card, extra = "") {
  const frame = `<rect x="2" y="2" width="116" height="176" rx="9"`;
  if (!card) {
    return (
      `<svg class="card back" viewBox="0 0 120 180" ${extra} role="img">` +
      `${frame} fill="#fbfaf5" stroke="#333" stroke-width="2"/>` +
      `<rect x="9" y="9" width="102" height="162" rx="5" fill="url(#card-back)" stroke="#f2c230" stroke-width="2"/>` +
      `<circle cx="60" cy="90" r="16" fill="none" stroke="#f2c230" stroke-width="2"/></svg>`
    );
  }
  const c = parse(card);
  let body;
  if (c.court) {
    body = figure(c, isFrench(card));
  } else if (c.value === 1) {
    body = use(c.pip, 60, 90, 64);
  } else {
    const layout = LAYOUTS[c.value] || LAYOUTS[1];
    const size = c.value > 7 ? 24 : 28;
    body = layout.map(([x, y]) => use(c.pip, x, y, size, y > 100 && c.pip.startsWith("pip-f-"))).join("");
  }
  return (
    `<svg class="card" viewBox="0 0 120 180" ${extra} role="img" aria-label="${cardName(card)}">` +
    `${frame} fill="#fffdf6" stroke="#333" stroke-width="2"/>${body}${corners(c)}</svg>`
  );
}
