// The actions the page sends (docs/api.md "Actions"), built from the card
// codes of the view: an action takes the document's `CardCode`, a view's card
// is a plain string, so each code is checked on the way in.

/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").CardCode} CardCode */

const CODE = /^(?:(?:[2-9]|10|[AJQK])[CDHS]|JK)$/;

/**
 * @param {string} code
 * @returns {CardCode}
 */
export function cardCode(code) {
  if (!CODE.test(code)) throw new Error(`not a card code: ${code}`);
  return /** @type {CardCode} */ (code);
}

/** @param {readonly string[]} cards */
const codes = (cards) => cards.map(cardCode);

/**
 * A draw; `count` > 1 takes that many cards off the pile's top at once (500 Rum's
 * spread pile), sent only then, so other variants' draws stay as they were.
 * @param {"stock" | "discard"} source
 * @param {number} [count]
 * @returns {Action}
 */
export const draw = (source, count = 1) =>
  count > 1 ? { type: "draw", source, count } : { type: "draw", source };

/** @param {string} card @returns {Action} */
export const discard = (card) => ({ type: "discard", card: cardCode(card) });

/** @param {string} card @returns {Action} */
export const knock = (card) => ({ type: "knock", card: cardCode(card) });

/**
 * A Gin Rummy knock with the knocker's arrangement (`melds`; the cards in none of
 * them are its deadwood); without `card`, big gin: all eleven cards in melds.
 * @param {string | null} card
 * @param {readonly (readonly string[])[]} melds
 * @returns {Action}
 */
export const ginKnock = (card, melds) =>
  card === null ? { type: "knock", melds: melds.map(codes) } : { type: "knock", card: cardCode(card), melds: melds.map(codes) };

/** Gin Rummy's upcard offer declined. @returns {Action} */
export const pass = () => ({ type: "pass" });

/**
 * @param {readonly string[]} cards
 * @param {readonly string[] | null} [as] what each card stands for; none: the server reads them
 * @returns {Action}
 */
export const meld = (cards, as = null) =>
  as ? { type: "meld", cards: codes(cards), as: codes(as) } : { type: "meld", cards: codes(cards) };

/**
 * @param {string} card
 * @param {string} meldId
 * @param {string | null} [as]
 * @returns {Action}
 */
export const layOff = (card, meldId, as = null) =>
  as ? { type: "lay_off", card: cardCode(card), meld_id: meldId, as: cardCode(as) } : { type: "lay_off", card: cardCode(card), meld_id: meldId };

/** @param {string} meldId @param {string} card @returns {Action} */
export const swap = (meldId, card) => ({ type: "swap", meld_id: meldId, card: cardCode(card) });

/** @param {string} card @param {readonly (readonly string[])[]} groups @returns {Action} */
export const declare = (card, groups) => ({ type: "declare", card: cardCode(card), groups: groups.map(codes) });

/** @param {readonly (readonly string[])[]} groups @returns {Action} */
export const submitGroups = (groups) => ({ type: "submit_groups", groups: groups.map(codes) });

/** @returns {Action} */
export const drop = () => ({ type: "drop" });
