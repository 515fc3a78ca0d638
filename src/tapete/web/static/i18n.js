// Strings for the browser: every one comes from the server's catalogs (GET /api/i18n/<lang>).
// t(text, {n: 3}) gives it in the current language, placeholders filled in.

let current = { lang: "en", ui: {}, ranks: {}, suits: {}, card: "{rank} of {suit}", rules: {}, games: {}, params: {} };

export const LANGS = [
  ["en", "English"],
  ["es", "Español"],
  ["pt", "Português (Brasil)"],
];

// The server keeps a copy of the person's choice in this cookie, to send the page in their
// language from its first paint (lang attribute and all, for screen readers and translators).
export function keepLang(code) {
  localStorage.setItem("tapete:lang", code);
  document.cookie = `tapete-lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

export function browserLang() {
  const saved = localStorage.getItem("tapete:lang");
  if (saved) {
    keepLang(saved); // a choice made before the cookie was: the next page opens in it too
    return saved;
  }
  // The page came in the language the server picked from the browser's; the same one here.
  const served = document.documentElement.lang.split("-")[0];
  if (LANGS.some(([code]) => code === served)) return served;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.split("-")[0].toLowerCase();
    if (LANGS.some(([code]) => code === base)) return base;
  }
  return "en";
}

// Each call is a choice of language: only the latest is kept, whichever catalog arrives last (a
// quick Spanish-then-English left the page, and the next one opened, in Spanish).
let chosen = 0;

export async function loadLang(lang) {
  const choice = ++chosen;
  const response = await fetch(`/api/i18n/${lang}`);
  const catalog = await response.json();
  if (choice !== chosen) return current.lang; // a later choice is on its way
  current = catalog;
  document.documentElement.lang = current.lang === "pt" ? "pt-BR" : current.lang;
  return current.lang;
}

export function lang() {
  return current.lang;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
}

// A number as the current language writes it, with `digits` decimals: 2.5 in English, 2,5 in
// Spanish and Portuguese. No thousands marks: as the server's text, which has none either.
export function formatNumber(value, digits = 1) {
  const tag = current.lang === "pt" ? "pt-BR" : current.lang;
  return new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(value);
}

export function t(text, values = {}) {
  return fill(current.ui[text] ?? text, values);
}

// A card's name for screen readers and the log: "7 of espadas", "As de oros".
export function cardName(card) {
  const kind = isFrench(card) ? "f" : "s";
  const rank = card.slice(0, -1);
  return fill(current.card, {
    rank: current.ranks[kind + rank] ?? (rank === "T" ? "10" : rank),
    suit: current.suits[kind + card.slice(-1)] ?? card.slice(-1),
  });
}

// French cards have a letter or 2-9 rank and a c/d/h/s suit; Spanish ones a 1-12 rank and o/c/e/b.
// "2c".."9c" are ambiguous: the deck of the table decides (see setDeck).
let deckKind = "spanish";
export function setDeck(kind) {
  deckKind = kind;
}
export function isFrench(card) {
  const rank = card.slice(0, -1);
  if (/^[TJQKA]$/.test(rank) || "dhs".includes(card.slice(-1))) return true;
  if ("oeb".includes(card.slice(-1)) || /^1[0-2]?$/.test(rank)) return false;
  return deckKind === "french";
}

export function ruleText(rule, fallback) {
  return current.rules[rule] ?? fallback;
}

// A game's one-line description, in the current language.
export function gameSummary(name, fallback) {
  return current.games?.[name] ?? fallback;
}

// What a bot level does, in a sentence in the current language ("" for an unknown level).
export function levelHelp(level) {
  return current.levels?.[level] ?? "";
}

// A rule option's label and help line, in the current language (its name with spaces if unknown).
export function optionWords(name) {
  return current.params?.[name] ?? { label: name.replaceAll("_", " "), help: "" };
}

// A card as the page writes it: French cards with their suit glyph (K♦, 10♥); Spanish ones by
// their names (caballo de copas), as the table's cards and the hint name them: their codes
// (11c) are the record's, which nothing on the page teaches.
const GLYPHS = { c: "♣", d: "♦", h: "♥", s: "♠" };
export function cardGlyph(card) {
  if (!isFrench(card)) return cardName(card);
  const rank = card.slice(0, -1);
  return (rank === "T" ? "10" : rank) + (GLYPHS[card.slice(-1)] ?? card.slice(-1));
}
