// Card codes as docs/rules.md spells them ("10H", "AS", "JK"): how the page
// shows and names them, and the multiset sums a hand needs (codes may repeat
// in games with two packs).

import { h } from "./dom.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["C", "D", "H", "S"];
/** @type {Record<string, string>} */
const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** @type {Record<string, string>} */
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
/** @type {Record<string, string>} */
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };

export const JOKER = "JK";

/** Every card code of one pack, in the page's order (for "stands for" choices). */
export const PACK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

/**
 * @param {string} code
 * @returns {{rank: string, suit: string}}
 */
export function parts(code) {
  if (code === JOKER) return { rank: JOKER, suit: "" };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** "10♥", "Joker". @param {string} code */
export function label(code) {
  if (code === JOKER) return "Joker";
  const { rank, suit } = parts(code);
  return rank + (SUIT_SIGNS[suit] ?? suit);
}

/** "10 of hearts", "queen of spades", "joker": for screen readers. @param {string} code */
export function spoken(code) {
  if (code === JOKER) return "joker";
  const { rank, suit } = parts(code);
  return `${RANK_NAMES[rank] ?? rank} of ${SUIT_NAMES[suit] ?? suit}`;
}

/**
 * The name of a control that shows a card: its words, after the rank as printed
 * where the two differ ("K, king of spades"; "7 of hearts"), so that the name
 * holds the label a person sees (and may say to voice control).
 * @param {string} code
 */
export function named(code) {
  const { rank } = parts(code);
  return RANK_NAMES[rank] ? `${rank}, ${spoken(code)}` : spoken(code);
}

/** Several cards in words. @param {readonly string[]} codes */
export function labels(codes) {
  return codes.map(label).join(" ");
}

/** @param {string} code */
function colour(code) {
  const { suit } = parts(code);
  return suit === "H" || suit === "D" ? "red" : suit === "" ? "joker" : "black";
}

/** @param {string} code */
function rankIndex(code) {
  const index = RANKS.indexOf(parts(code).rank);
  return index < 0 ? RANKS.length : index;
}

/** @param {string} code */
function suitIndex(code) {
  const index = SUITS.indexOf(parts(code).suit);
  return index < 0 ? SUITS.length : index;
}

/**
 * The hand sorted by suit (then rank, the joker last); the server sends it by rank.
 * @param {readonly string[]} codes
 */
export function bySuit(codes) {
  return [...codes].sort((a, b) => suitIndex(a) - suitIndex(b) || rankIndex(a) - rankIndex(b));
}

/**
 * Whether two lists hold the same cards, as many times each.
 * @param {readonly string[]} a
 * @param {readonly string[]} b
 */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const left = [...a].sort();
  const right = [...b].sort();
  return left.every((code, index) => code === right[index]);
}

/**
 * `hand` less one copy of each of `cards` (those it holds).
 * @param {readonly string[]} hand
 * @param {readonly string[]} cards
 */
export function without(hand, cards) {
  const rest = [...hand];
  for (const code of cards) {
    const index = rest.indexOf(code);
    if (index >= 0) rest.splice(index, 1);
  }
  return rest;
}

/**
 * Whether `code` is wild in a game whose wild rank is `rank` (jokers always are).
 * @param {string} code
 * @param {string | null | undefined} rank
 */
export function isWild(code, rank) {
  return code === JOKER || (rank !== null && rank !== undefined && parts(code).rank === rank);
}

/**
 * A face-up card, as text with its colour (not a control).
 * @param {string} code
 * @param {string | null} [stands] what a wild stands for in a meld
 * @param {boolean} [wild] marked as a wild card of this game
 */
export function face(code, stands = null, wild = false) {
  const title = (stands && stands !== code ? `${spoken(code)} as ${spoken(stands)}` : spoken(code)) + (wild ? ", wild" : "");
  return h(
    "span",
    { class: `card ${colour(code)}${wild ? " wild" : ""}`, title, "aria-label": title, role: "img", "data-card": code },
    label(code),
    stands && stands !== code ? h("small", { class: "as" }, `=${label(stands)}`) : null,
  );
}

/** A face-down card (the stock). */
export function back() {
  return h("span", { class: "card back", "aria-hidden": "true" }, "🂠");
}
