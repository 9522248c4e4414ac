// Live updates, as docs/api.md "Live updates in a browser" says: a player
// trades its token for a one-use stream ticket (an EventSource cannot send a
// header, and a token never goes in a URL), opens the stream with `view=true`
// after the last version it has, and on any error closes it and opens a new
// one with a new ticket. The public (a spectator) needs no ticket.

import { Problem, streamPath, streamTicket } from "./api.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").GameEvent} GameEvent */

/**
 * The event types the page tells in words; others have no listener and are
 * skipped, as docs/api.md asks (a newer service may add types).
 */
export const EVENT_TYPES = [
  "game_created",
  "player_joined",
  "hand_dealt",
  "card_drawn",
  "meld_laid",
  "card_laid_off",
  "card_discarded",
  "stock_recycled",
  "hand_ended",
  "game_finished",
  "game_aborted",
  "wild_swapped",
  "knocked",
  "declared",
  "groups_submitted",
  "player_dropped",
  "player_eliminated",
  "turn_timed_out",
  "player_left",
  "time_bank_used",
  "upcard_passed",
];

/**
 * @typedef {object} Handlers
 * @property {(view: GameView) => void} view
 * @property {(event: GameEvent) => void} event
 * @property {(state: "live" | "reconnecting" | "ended", problem?: Problem) => void} state
 */

/**
 * Follow a game from `after` on until it is finished or `stop()` is called.
 * @param {string} gameId
 * @param {string | null} token null: the public stream
 * @param {number} after
 * @param {Handlers} handlers
 * @returns {{stop: () => void}}
 */
export function follow(gameId, token, after, handlers) {
  let last = after;
  let stopped = false;
  let finished = false;
  let failures = 0;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  const again = () => {
    if (stopped || finished) return;
    failures += 1;
    // 0.5 s, 1 s, 2 s ... up to 10 s: a restarting server is not hammered.
    timer = setTimeout(open, Math.min(10_000, 250 * 2 ** failures));
  };

  const open = async () => {
    timer = null;
    let ticket = null;
    if (token) {
      try {
        ({ ticket } = await streamTicket(gameId, token));
      } catch (error) {
        if (error instanceof Problem && [401, 403, 404].includes(error.status)) {
          // The token is not (or no longer) this game's: nothing to retry.
          stopped = true;
          handlers.state("ended", error);
          return;
        }
        handlers.state("reconnecting", error instanceof Problem ? error : undefined);
        again();
        return;
      }
    }
    if (stopped) return;
    const opened = new EventSource(streamPath(gameId, ticket, last));
    source = opened;
    opened.onopen = () => {
      failures = 0;
      handlers.state("live");
    };
    /** @param {MessageEvent<string>} message */
    const seen = (message) => {
      const id = Number(message.lastEventId);
      if (Number.isInteger(id) && id > last) last = id;
    };
    opened.addEventListener("view", (message) => {
      seen(message);
      /** @type {GameView} */
      const view = JSON.parse(message.data);
      if (view.status !== "waiting" && view.status !== "playing") finished = true;
      handlers.view(view);
    });
    for (const type of EVENT_TYPES) {
      opened.addEventListener(type, (message) => {
        seen(message);
        handlers.event(JSON.parse(message.data));
      });
    }
    opened.onerror = () => {
      // Ended by the server (a finished game, a restart), refused, or dropped. The
      // EventSource would retry with the spent ticket: close it and open anew.
      opened.close();
      if (source === opened) source = null;
      if (finished || stopped) {
        handlers.state("ended");
        return;
      }
      handlers.state("reconnecting");
      again();
    };
  };

  open();
  return {
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      source?.close();
    },
  };
}
