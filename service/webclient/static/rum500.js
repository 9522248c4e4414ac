// What 500 Rum adds to the table (docs/rules.md "500 Rum", docs/api.md): the
// spread pile, every card of it shown in order with "take from here" at each
// depth `legal.pile_counts` allows, the called card marked in the hand until it
// is melded or laid off, the points each player has put down this hand, and the
// hand's result (put down, left in hand, points, total). Drawn when the view
// carries those fields (`discard_pile`, `called_card`, `melded_points`), never
// by the variant's name.

import { face, label, labels, spoken } from "./cards.js";
import { h } from "./dom.js";
import { loose } from "./gin.js";
import { nameOf } from "./log.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").Legal} Legal */
/** @typedef {import("./types").LastHand} LastHand */

/** The whole pile, bottom first, when the view spreads it; else null. @param {GameView} view @returns {string[] | null} */
export function spreadOf(view) {
  const pile = loose(view).discard_pile;
  return Array.isArray(pile) ? pile.map(String) : null;
}

/** The depths the caller may take from now (`legal.pile_counts`). @param {Legal} legal @returns {number[]} */
export function pileCounts(legal) {
  const counts = loose(legal).pile_counts;
  return Array.isArray(counts) ? counts.filter((count) => typeof count === "number") : [];
}

/** The card the caller took from depth and must still use, if any. @param {GameView | null} view @returns {string | null} */
export function calledCard(view) {
  const called = loose(view).called_card;
  return typeof called === "string" ? called : null;
}

/**
 * The spread pile: every card in order (the top last), and at each depth the
 * caller may take from, a "take from here" button.
 * @param {GameView} view
 * @param {readonly string[]} pile bottom first
 * @param {readonly number[]} counts the depths offered now (none when it is not the caller's draw)
 * @param {(count: number) => void} take
 */
export function spreadPile(view, pile, counts, take) {
  const offered = new Set(counts);
  return h(
    "div",
    { class: "pile discard spread" },
    h("span", { class: "pile-label", id: "spread-label" }, `Pile: ${pile.length} (every card shown, the top last)`),
    pile.length === 0
      ? h("span", { class: "card empty" }, "–")
      : h(
          "ol",
          { class: "spread-cards", "aria-labelledby": "spread-label" },
          pile.map((code, index) => {
            const count = pile.length - index;
            return h(
              "li",
              { "data-card": code, "data-depth": count },
              face(code),
              offered.has(count)
                ? h(
                    "button",
                    {
                      type: "button",
                      class: `small${count === 1 ? " primary" : ""}`,
                      "data-focus": count === 1 ? "draw-pile" : `take-${count}`,
                      title: count === 1 ? null : `Takes ${labels(pile.slice(index))}; ${label(code)} must be melded or laid off this turn.`,
                      // The name begins with the words shown (for voice control), then says what it takes.
                      "aria-label":
                        count === 1
                          ? `Take the ${spoken(code)}`
                          : `Take from here: ${count} cards, down to the ${spoken(code)}, which you must meld or lay off this turn`,
                      onclick: () => take(count),
                    },
                    count === 1 ? "Take" : "Take from here",
                  )
                : null,
            );
          }),
        ),
    view.discard_count !== pile.length ? h("small", {}, `(${view.discard_count} in the pile)`) : null,
  );
}

/** The note under the hand while a called card waits to be used. @param {string} card */
export function calledHint(card) {
  return h("p", { class: "hint called-hint", "data-card": card }, `Meld or lay off ${label(card)}, the card you called from the pile, before you end your turn.`);
}

// --- the hand's result -------------------------------------------------------------

/** Whether a hand result is 500 Rum's (its seats carry the points put down). @param {LastHand} hand */
export function isMeldPointsResult(hand) {
  return hand.players.some((seat) => "melded_points" in seat || "in_hand" in seat);
}

/**
 * Per seat: the points it put down, the cards left in its hand, the hand's
 * points (the first less the second's value) and the total.
 * @param {GameView} view
 * @param {LastHand} hand
 */
export function meldPointsTable(view, hand) {
  return h(
    "table",
    { class: "rum500-result" },
    h("thead", {}, h("tr", {}, ["Player", "Put down", "Left in hand", "Points", "Total"].map((name) => h("th", { scope: "col" }, name)))),
    h(
      "tbody",
      {},
      hand.players.map((seat) => {
        const extra = loose(seat);
        const left = Array.isArray(extra.in_hand) ? extra.in_hand.map(String) : seat.cards;
        return h(
          "tr",
          { "data-seat": seat.seat },
          h("th", { scope: "row" }, nameOf(view, seat.seat)),
          h("td", { class: "number melded" }, String(extra.melded_points ?? "–")),
          h("td", { class: "in-hand" }, left && left.length ? h("span", { class: "cards" }, left.map((code) => face(code))) : "–"),
          h("td", { class: "number" }, String(seat.points)),
          h("td", { class: "number" }, String(seat.total)),
        );
      }),
    ),
  );
}
