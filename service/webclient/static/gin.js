// What Gin Rummy adds to the table (docs/rules.md "Gin Rummy", docs/api.md):
// the upcard offer, the hand's knock limit and doubling, hands won, a knock
// with its arrangement shown, the hand's result with both arrangements and the
// defender's lay-offs, and the game's bonuses. Each piece is drawn when the view
// carries its fields (`knock_limit`, `legal.big_gin`, `laid_off`, `result`),
// never by the variant's name, and reads them tolerantly: a field missing is
// left out, a value the page does not know is shown as it comes.

import { arrange } from "./arrange.js";
import { face, label, labels, without } from "./cards.js";
import { h } from "./dom.js";
import { nameOf } from "./log.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").Legal} Legal */
/** @typedef {import("./types").LastHand} LastHand */
/** @typedef {import("./arrange.js").Arrangement} Arrangement */
/** @typedef {Record<string, any>} Loose */

/**
 * A view's (or any record's) fields the document may not name yet, read as they come.
 * @param {unknown} record
 * @returns {Loose}
 */
export const loose = (record) => /** @type {Loose} */ (record ?? {});

/**
 * A per-seat figure the view carries on `players[]` or as a list (or map) by seat.
 * @param {GameView} view
 * @param {string} key
 * @param {number} seat
 * @returns {number | null}
 */
export function perSeat(view, key, seat) {
  const player = loose(view.players.find((entry) => entry.seat === seat));
  if (typeof player[key] === "number") return player[key];
  const all = loose(view)[key];
  const value = Array.isArray(all) ? all[seat] : all && typeof all === "object" ? all[String(seat)] : undefined;
  return typeof value === "number" ? value : null;
}

/**
 * Whether `legal` is Gin Rummy's, where a knock comes with an arrangement: it
 * counts the deadwood (`big_gin` and `can_pass` may be false in every variant).
 * @param {Legal} legal
 */
export function ginLegal(legal) {
  return typeof loose(legal).deadwood === "number";
}

/** The hand's knock limit in words. @param {number} limit */
export function limitText(limit) {
  return limit === 0 ? "gin only" : `knock at ${limit} or less`;
}

/**
 * The hand's terms beside the piles: its knock limit, doubled or not.
 * @param {GameView} view
 */
export function handTerms(view) {
  const extra = loose(view);
  if (typeof extra.knock_limit !== "number") return null;
  return h(
    "div",
    { class: "pile terms" },
    h("span", { class: "pile-label" }, "This hand"),
    h("span", { class: "knock-limit", "data-limit": extra.knock_limit }, extra.knock_limit === 0 ? "Knock limit 0: gin only" : `Knock limit ${extra.knock_limit}`),
    extra.doubled ? h("span", { class: "doubled" }, "Doubled: the upcard is a spade") : null,
  );
}

/** The status line while the upcard is offered. @param {GameView} view @param {boolean} mine */
export function offerStatus(view, mine) {
  const upcard = view.discard_top ? label(view.discard_top) : "the upcard";
  return mine ? `Your turn: take the upcard ${upcard}, or pass.` : `${nameOf(view, view.turn)} may take the upcard ${upcard} or pass.`;
}

/**
 * The arrangement a knock with `card` would show: the rest of the hand arranged
 * for the least deadwood (`card` null: big gin, the whole hand).
 * @param {readonly string[]} hand
 * @param {string | null} card
 * @returns {Arrangement}
 */
export function knockArrangement(hand, card) {
  return arrange(card === null ? hand : without(hand, [card]));
}

/**
 * A shown arrangement: its melds, then its deadwood and their count.
 * @param {Arrangement} arrangement
 * @param {string} title
 */
export function arrangementPanel(arrangement, title) {
  return h(
    "div",
    { class: "arrangement", role: "group", "aria-label": title },
    h("h3", {}, title),
    h(
      "p",
      { class: "arranged" },
      arrangement.melds.length
        ? arrangement.melds.map((meld) => h("span", { class: "meld-inline cards", "aria-label": `meld ${labels(meld)}` }, meld.map((code) => face(code))))
        : h("span", { class: "hint" }, "No melds."),
    ),
    h(
      "p",
      { class: "deadwood", "data-count": arrangement.count },
      arrangement.deadwood.length ? ["Deadwood: ", h("span", { class: "cards" }, arrangement.deadwood.map((code) => face(code))), ` = ${arrangement.count}`] : "No deadwood: gin.",
    ),
  );
}

/** The hint of the server's own count, under the hand. @param {Legal} legal @param {GameView} view */
export function deadwoodHint(legal, view) {
  const extra = loose(legal);
  if (typeof extra.deadwood !== "number") return null;
  const limit = loose(view).knock_limit;
  const knocks = Array.isArray(extra.knock) ? extra.knock : [];
  return h(
    "p",
    { class: "hint server-deadwood", "data-deadwood": extra.deadwood },
    `Your least deadwood now: ${extra.deadwood}`,
    typeof limit === "number" ? ` (this hand: ${limitText(limit)})` : "",
    knocks.length ? `. You may knock with ${labels(knocks)}` : "",
    extra.big_gin ? ". Big gin: all your cards are in melds" : "",
    ".",
  );
}

// --- the hand's result -------------------------------------------------------------

/** @type {Record<string, string>} */
const HOW = {
  knock: "knocked",
  gin: "went gin",
  big_gin: "went big gin",
  undercut: "knocked and was undercut",
};

/** Whether a hand result is Gin Rummy's (its seats carry deadwood or lay-offs). @param {LastHand} hand */
export function isGinResult(hand) {
  return hand.players.some((seat) => "laid_off" in seat || "deadwood" in seat);
}

/**
 * How a Gin Rummy hand ended, in a sentence.
 * @param {GameView} view
 * @param {LastHand} hand
 */
export function ginHow(view, hand) {
  const extra = loose(hand);
  const how = String(extra.how);
  if (how === "void") return "A void hand: the stock ran down with no knock, and nobody scores.";
  const knocker = nameOf(view, extra.knocker);
  const scored = hand.players.find((seat) => seat.points > 0);
  const winner = scored ? ` ${nameOf(view, scored.seat)} scores ${scored.points}.` : "";
  // The knock card was face down until now: the result names it.
  const card = typeof extra.knock_card === "string" ? ` with ${label(extra.knock_card)} face down` : "";
  if (how === "undercut") return `${knocker} knocked${card}; undercut!${winner}`;
  return `${knocker} ${HOW[how] ?? `ended the hand (${how})`}${how === "knock" ? card : ""}.${winner}`;
}

/**
 * A hand's arrangements as the result shows them: per seat its melds, its
 * deadwood, its lay-offs onto the knocker's melds, its count, points and total.
 * @param {GameView} view
 * @param {LastHand} hand
 */
export function ginTable(view, hand) {
  const knocker = hand.players.find((seat) => seat.seat === loose(hand).knocker);
  const knockerMelds = /** @type {string[][]} */ (knocker?.melds ?? []);
  /** @param {readonly string[] | null | undefined} codes */
  const cards = (codes) => (codes && codes.length ? h("span", { class: "cards" }, codes.map((code) => face(code))) : "–");
  return h(
    "table",
    { class: "gin-result" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Player", "Melds", "Deadwood", "Laid off", "Count", "Points", "Total"].map((name) => h("th", { scope: "col" }, name)),
      ),
    ),
    h(
      "tbody",
      {},
      hand.players.map((seat) => {
        const extra = loose(seat);
        /** @type {{card: string, meld: number}[]} */
        const laid = Array.isArray(extra.laid_off) ? extra.laid_off : [];
        return h(
          "tr",
          { "data-seat": seat.seat, class: seat.seat === extra.knocker ? "knocker" : "" },
          h("th", { scope: "row" }, nameOf(view, seat.seat), seat.seat === loose(hand).knocker ? h("small", { class: "role" }, " knocked") : null),
          h("td", {}, (seat.melds ?? []).map((meld) => h("span", { class: "meld-inline" }, cards(meld)))),
          h("td", { class: "deadwood-cards" }, cards(extra.deadwood ?? seat.unmatched)),
          h(
            "td",
            { class: "laid-off-cards" },
            laid.length
              ? h(
                  "ul",
                  { class: "lay-offs" },
                  laid.map((entry) =>
                    h(
                      "li",
                      { "data-card": entry.card },
                      face(entry.card),
                      ` on ${knockerMelds[entry.meld] ? labels(knockerMelds[entry.meld] ?? []) : `meld ${entry.meld + 1}`}`,
                    ),
                  ),
                )
              : "–",
          ),
          h("td", { class: "number" }, String(seat.count ?? seat.value)),
          h("td", { class: "number" }, String(seat.points)),
          h("td", { class: "number" }, String(seat.total)),
        );
      }),
    ),
  );
}

// --- the game's result ----------------------------------------------------------------

/**
 * The rows of a finished Gin Rummy game's `result` (a list by seat, or a record
 * with one), or none.
 * @param {GameView} view
 * @returns {Loose[]}
 */
function finalRows(view) {
  const result = loose(view).result;
  const rows = Array.isArray(result) ? result : Array.isArray(result?.players) ? result.players : Array.isArray(result?.seats) ? result.seats : [];
  return rows.map((/** @type {unknown} */ row, /** @type {number} */ index) => ({ seat: index, ...loose(row) }));
}

/**
 * The game's bonuses and totals: hands won, box, game bonus, shutout, total.
 * @param {GameView} view
 */
export function ginFinal(view) {
  const rows = finalRows(view);
  if (rows.length === 0 || !rows.some((row) => "hands_won" in row || "box" in row)) return null;
  /** @param {unknown} value */
  const number = (value) => h("td", { class: "number" }, typeof value === "number" ? String(value) : "–");
  return h(
    "div",
    { class: "scroll final-result", tabindex: 0, role: "region", "aria-label": "The game's bonuses" },
    h(
      "table",
      {},
      h("caption", {}, "The game's bonuses"),
      h("thead", {}, h("tr", {}, ["Player", "Hands won", "Box", "Game bonus", "Shutout", "Total"].map((name) => h("th", { scope: "col" }, name)))),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            { "data-seat": row.seat },
            h("th", { scope: "row" }, nameOf(view, row.seat)),
            number(row.hands_won),
            number(row.box),
            number(row.game_bonus),
            h("td", {}, row.shutout ? "doubled" : "no"),
            number(row.total),
          ),
        ),
      ),
    ),
  );
}
