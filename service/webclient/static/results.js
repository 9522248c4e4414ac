// The end of a hand and the end of the game, shown plainly: how the hand
// ended, each player's cards and points, the totals; the winner, and the audit
// export with the page's own check of it.

import { auditPath } from "./api.js";
import { face, labels, without } from "./cards.js";
import { h } from "./dom.js";
import { ginFinal, ginHow, ginTable, isGinResult } from "./gin.js";
import { nameOf } from "./log.js";
import { isMeldPointsResult, meldPointsTable } from "./rum500.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").LastHand} LastHand */
/** @typedef {import("./types").HandResultSeat} HandResultSeat */
/** @typedef {import("./audit.js").Check} Check */

/**
 * How the hand ended, in a sentence.
 * @param {GameView} view
 * @param {LastHand} hand
 */
export function howItEnded(view, hand) {
  /** @type {Record<string, any>} */
  const result = hand;
  if (isGinResult(hand)) return ginHow(view, hand);
  const out = nameOf(view, hand.out_seat);
  switch (String(hand.how)) {
    case "out":
      return hand.rummy ? `${out} went out in one turn: rummy!` : `${out} went out.`;
    case "rummy":
      return `${out} went out in one turn: rummy!`;
    case "exhausted":
      return "The stock ran out: nobody went out.";
    case "turn_cap":
      return "The hand reached its turn limit: nobody went out.";
    case "knock":
      return `${nameOf(view, hand.knocker)} knocked${hand.knock_card ? ` with ${labels([hand.knock_card])} face down` : ""}${hand.pot !== null && hand.pot !== undefined ? `; the pot is ${hand.pot}` : ""}.`;
    case "declared":
      return `${out} declared.`;
    case "last_standing":
      return `${out} was the last left in the deal.`;
    default:
      return `The hand ended (${String(result.how)}).`;
  }
}

/**
 * A row's cells of card faces (or a dash for none).
 * @param {readonly string[] | null | undefined} codes
 */
function cards(codes) {
  return codes && codes.length ? h("span", { class: "cards" }, codes.map((code) => face(code))) : "–";
}

/**
 * An Indian seat's show: its groups, then the cards it left out of them (all of
 * its cards when it grouped none).
 * @param {readonly {kind: string, cards: string[]}[]} groups
 * @param {readonly string[]} hand every card it showed
 */
function shown(groups, hand) {
  const left = without(hand, groups.flatMap((group) => group.cards));
  return [
    ...groups.map((group) => h("span", { class: `group ${group.kind}` }, h("small", {}, group.kind.replaceAll("_", " ")), cards(group.cards))),
    left.length ? h("span", { class: "group ungrouped" }, h("small", {}, "not grouped"), cards(left)) : null,
  ];
}

/**
 * The result of the hand that ended last.
 * @param {GameView} view
 * @param {LastHand} hand
 * @param {(() => void) | null} dismiss shown as "Continue" when the result is new
 */
export function handResult(view, hand, dismiss) {
  // Gin Rummy's and 500 Rum's results have columns of their own.
  const own = isGinResult(hand) ? ginTable(view, hand) : isMeldPointsResult(hand) ? meldPointsTable(view, hand) : null;
  const knock = hand.players.some((seat) => seat.count !== null && seat.count !== undefined);
  const grouped = hand.players.some((seat) => seat.groups);
  const hasStatus = hand.players.some((seat) => seat.status);
  /** @param {HandResultSeat} seat */
  const row = (seat) =>
    h(
      "tr",
      { "data-seat": seat.seat },
      h("th", { scope: "row" }, nameOf(view, seat.seat)),
      h(
        "td",
        {},
        seat.groups ? shown(seat.groups, seat.cards) : cards(knock ? seat.unmatched : seat.cards),
      ),
      knock ? h("td", {}, (seat.melds ?? []).map((meld) => h("span", { class: "meld-inline" }, cards(meld)))) : null,
      hasStatus ? h("td", {}, (seat.status ?? "").replaceAll("_", " ")) : null,
      h("td", { class: "number" }, String(knock ? seat.count ?? seat.value : seat.value)),
      h("td", { class: "number" }, String(seat.points)),
      h("td", { class: "number" }, String(seat.total)),
    );
  return h(
    "section",
    { class: "panel result", "aria-labelledby": "hand-result-title", "data-hand": hand.hand_number },
    h("h2", { id: "hand-result-title" }, `Hand ${hand.hand_number} is over`),
    h("p", { class: "how" }, howItEnded(view, hand)),
    h(
      "div",
      // On a phone the table may scroll sideways: a keyboard reaches it too.
      { class: "scroll", tabindex: 0, role: "region", "aria-label": `Hand ${hand.hand_number}'s scores` },
      own ??
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Player"),
            h("th", { scope: "col" }, grouped ? "Groups" : knock ? "Unmatched" : "Cards left"),
            knock ? h("th", { scope: "col" }, "Melds") : null,
            hasStatus ? h("th", { scope: "col" }, "Status") : null,
            h("th", { scope: "col" }, knock ? "Count" : "Value"),
            h("th", { scope: "col" }, "Points"),
            h("th", { scope: "col" }, "Total"),
          ),
        ),
        h("tbody", {}, hand.players.map((seat) => row(seat))),
      ),
    ),
    dismiss ? h("button", { type: "button", class: "primary", onclick: dismiss, "data-focus": "continue" }, "Continue") : null,
  );
}

/**
 * The end of the game: the winner, the totals, the audit export and its check.
 * @param {GameView} view
 * @param {Check[] | null} checks null while the page checks the export
 * @param {string | null} failure why the check could not run
 */
export function gameResult(view, checks, failure) {
  const ranked = standings(view);
  const winner = nameOf(view, view.winner);
  return h(
    "section",
    { class: "panel game-over", "aria-labelledby": "game-over-title" },
    h(
      "h2",
      { id: "game-over-title" },
      view.winner === null || view.winner === undefined
        ? "Game over: aborted at a cap of its rules, no winner."
        : view.my_seat === view.winner
          ? "Game over: you win!"
          : `Game over: ${winner} wins!`,
    ),
    h(
      "ol",
      { class: "standings" },
      ranked.map((player) => h("li", { "data-seat": player.seat }, `${nameOf(view, player.seat)}: ${player.score}`)),
    ),
    ginFinal(view),
    h(
      "div",
      { class: "audit" },
      h("h3", {}, "Audit"),
      h(
        "p",
        {},
        "Every move of this game, the deck of every hand and the shuffle's seed: ",
        h("a", { href: auditPath(view.game_id), download: `rummy-${view.game_id}.json`, "data-focus": "audit-link" }, "download the audit export"),
        ". ",
        h("code", {}, "rummy verify FILE"),
        " replays it by the rules.",
      ),
      failure
        ? h("p", { class: "bad" }, `The export could not be checked: ${failure}`)
        : checks === null
          ? h("p", { class: "checking" }, "Checking the export…")
          : h(
              "ul",
              { class: "checks", "data-verified": String(checks.every((check) => check.ok)) },
              checks.map((check) =>
                h("li", { class: check.ok ? "good" : "bad" }, h("strong", {}, `${check.ok ? "✓" : "✗"} ${check.name}: `), check.detail),
              ),
            ),
    ),
    h(
      "p",
      { class: "after-game" },
      h("a", { href: replayLink(view.game_id), "data-focus": "replay-link" }, "Watch the replay"),
      " · ",
      h("a", { href: "/play" }, "New table"),
    ),
  );
}

/** The replay viewer's address for a game. @param {string} gameId */
export function replayLink(gameId) {
  return `/play?game=${encodeURIComponent(gameId)}&replay`;
}

/**
 * The players best first, as the game ranks them: the winner, then by total
 * (the lowest first where points count against: `scoring: penalty`, Indian
 * pools), the eliminated after those still in, the forfeited last; a tie in
 * seat order.
 * @param {GameView} view
 */
export function standings(view) {
  const format = String(view.rules.format ?? "");
  const lowest = view.rules.scoring === "penalty" || (view.variant === "indian" && format.startsWith("pool"));
  /** @param {GameView["players"][number]} player */
  const group = (player) => (player.seat === view.winner ? 0 : player.forfeited ? 3 : player.status === "eliminated" ? 2 : 1);
  return [...view.players].sort(
    (a, b) => group(a) - group(b) || (lowest ? a.score - b.score : b.score - a.score) || a.seat - b.seat,
  );
}
