// What happened, in words: one line per event of the stream.

import { labels, label } from "./cards.js";

/** @typedef {import("./types").GameEvent} GameEvent */
/** @typedef {import("./types").KnownEvent} KnownEvent */
/** @typedef {import("./types").GameView} GameView */

/**
 * The name of a seat as the view shows it.
 * @param {GameView | null} view
 * @param {number | null | undefined} seat
 */
export function nameOf(view, seat) {
  if (seat === null || seat === undefined) return "The table";
  const player = view?.players.find((entry) => entry.seat === seat);
  const name = player?.name ?? `Seat ${seat + 1}`;
  return view?.my_seat === seat ? `${name} (you)` : name;
}

/**
 * Whose a thing on the table is: "your", or "Ann's".
 * @param {GameView | null} view
 * @param {number} seat
 */
export function whose(view, seat) {
  if (view?.my_seat === seat) return "your";
  const player = view?.players.find((entry) => entry.seat === seat);
  return `${player?.name ?? `Seat ${seat + 1}`}'s`;
}

/**
 * Whether `event` is of `type` (an event of a type the document does not know
 * has the same shape of a `type` string, so TypeScript cannot tell by itself).
 * @template {KnownEvent["type"]} T
 * @param {GameEvent} event
 * @param {T} type
 * @returns {event is Extract<KnownEvent, {type: T}>}
 */
export function isEvent(event, type) {
  return event.type === type;
}

/** @type {Record<string, string>} */
const HOW = {
  out: "went out",
  rummy: "went rummy",
  exhausted: "the stock ran out",
  turn_cap: "the turn limit was reached",
  knock: "a knock",
  declared: "a declaration",
  last_standing: "one player was left",
  gin: "went gin",
  big_gin: "went big gin",
  undercut: "was undercut",
  void: "a void hand",
};

/** How a Gin Rummy hand ended, after its knocker's name (`hand_ended.how`). @type {Record<string, string>} */
const GIN_ENDS = { knock: "knocked", gin: "went gin", big_gin: "went big gin", undercut: "knocked and was undercut" };

/** What a Gin Rummy knock was (`knocked.kind`). @type {Record<string, string>} */
const KNOCKS = { knock: "knocked", gin: "knocked for gin", big_gin: "went big gin" };

/**
 * "you" for the page's own seat, else "them" (the bot plays for a person of any sex).
 * @param {GameView | null} view
 * @param {unknown} seat
 */
function them(view, seat) {
  return view?.my_seat === seat ? "you" : "them";
}

/**
 * A timeout (docs/rules.md "Leaving and turn clocks"): the bot makes the seat's
 * move, unless this timeout took the seat over under `abandon: forfeit`.
 * @param {GameView | null} view
 * @param {string} who
 * @param {Record<string, any>} data
 */
function timedOut(view, who, data) {
  const takeover = Number(view?.rules.timeouts_before_takeover ?? 3);
  const count = `${data.timeouts} of ${takeover} in a row`;
  if (data.timeouts >= takeover && view?.rules.abandon === "forfeit") return `${who} ran out of time (${count}).`;
  return `${who} ran out of time; the bot moved for ${them(view, data.seat)} (${count}).`;
}

/**
 * A seat's player gone for good: left, resigned, or taken over by the clock.
 * @param {GameView | null} view
 * @param {string} who
 * @param {Record<string, any>} data
 */
function left(view, who, data) {
  const how = { left: "left the table", resigned: "resigned", timed_out: "ran out of time too often" }[String(data.reason)] ?? "left";
  const then = data.replaced ? `; the bot plays on for ${them(view, data.seat)}` : data.reason === "resigned" ? "" : " and forfeits";
  const drop = data.drop ? ` It counts as a ${data.drop} drop (${data.points} points).` : "";
  return `${who} ${how}${then}.${drop}`;
}

/**
 * One event as a sentence, or null for one the page does not tell.
 * @param {GameEvent} event
 * @param {GameView | null} view the view to name the seats by
 * @returns {string | null}
 */
export function describe(event, view) {
  const who = nameOf(view, "seat" in event ? event.seat : null);
  /** @type {Record<string, any>} */
  const data = event;
  switch (event.type) {
    case "game_created":
      return "The table was set.";
    case "player_joined":
      return `${data.name} took seat ${Number(data.seat ?? 0) + 1}.`;
    case "hand_dealt":
      return `Hand ${data.hand_number} was dealt by ${nameOf(view, data.dealer)}${data.upcard ? `; the upcard is ${label(data.upcard)}` : ""}.`;
    case "card_drawn": {
      const which = data.second ? "a second card" : "a card";
      // 500 Rum: several cards off the spread pile at once (public, as the pile is).
      if (data.source === "discard" && Number(data.count ?? 1) > 1) {
        return `${who} took ${data.count} cards from the pile${Array.isArray(data.cards) ? `: ${labels(data.cards)}` : ""}.`;
      }
      return data.source === "discard"
        ? `${who} took ${data.card ? label(data.card) : which} from the pile.`
        : `${who} drew ${which} from the stock${data.card ? ` (${label(data.card)})` : ""}.`;
    }
    case "meld_laid": {
      const read = data.as && data.as.join() !== data.cards.join() ? ` (as ${labels(data.as)})` : "";
      return `${who} laid a ${data.kind}: ${labels(data.cards)}${read}.`;
    }
    case "card_laid_off":
      return `${who} laid off ${label(data.card)}${data.as ? ` as ${label(data.as)}` : ""}.`;
    case "card_discarded":
      return `${who} discarded ${label(data.card)}.`;
    case "stock_recycled":
      return `The pile became the new stock (${data.stock_count} cards).`;
    case "hand_ended":
      // Gin Rummy: a hand is ended by its knocker (or void, by nobody).
      if (data.how === "void") return `Hand ${data.hand_number} ended void: nobody scores.`;
      if (typeof data.knocker === "number" && GIN_ENDS[data.how]) return `Hand ${data.hand_number} ended: ${nameOf(view, data.knocker)} ${GIN_ENDS[data.how]}.`;
      return `Hand ${data.hand_number} ended: ${data.out_seat !== null && data.out_seat !== undefined ? `${nameOf(view, data.out_seat)} ${HOW[data.how] ?? data.how}` : HOW[data.how] ?? data.how}.`;
    case "game_finished":
      return `The game is over: ${nameOf(view, data.winner)} won.`;
    case "game_aborted":
      return `The game was stopped with no winner (${data.reason}).`;
    case "wild_swapped":
      return `${who} put ${label(data.card)} into a meld and took the ${label(data.wild)}.`;
    case "knocked":
      return `${who} ${KNOCKS[String(data.kind ?? "knock")] ?? "knocked"}.`;
    case "upcard_passed":
      return `${who} passed on the upcard.`;
    case "declared":
      return `${who} declared${data.valid === false ? ": a wrong show" : ""}.`;
    case "groups_submitted":
      return `${who} showed their groups.`;
    case "player_dropped":
      return `${who} dropped (${data.points} points).`;
    case "player_eliminated":
      return `${who} is out of the game.`;
    case "turn_timed_out":
      return timedOut(view, who, data);
    case "player_left":
      return left(view, who, data);
    case "time_bank_used":
      return `${who} used ${data.seconds} s of the time bank.`;
    default:
      return null;
  }
}
