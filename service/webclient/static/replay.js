// The replay viewer, /play?game=<id>&replay: a game that is over, stepped through
// move by move (one version at a time, the event that led to it told in words),
// from the public's view, from any seat's, or with the admin token from the
// admin's, which shows every hand. Each view is the server's own
// (`GET /games/{id}/replay?version=N&seat=K`, docs/api.md "Replays"): the page
// hides nothing itself. Keys: ← and → step, Home and End go to the first and the
// last version, Space plays or pauses.

import { getEvents, getGame, getReplay } from "./api.js";
import { back, face } from "./cards.js";
import { h, replace } from "./dom.js";
import { handTerms } from "./gin.js";
import { describe, nameOf } from "./log.js";
import { showProblem } from "./notice.js";
import { handResult, standings } from "./results.js";
import { spreadOf, spreadPile } from "./rum500.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").GameEvent} GameEvent */
/** @typedef {"public" | "admin" | number} Who whose view: the public's, the admin's, a seat's */

/**
 * The statuses of a game not over yet; any other (finished, or one a newer server
 * adds for a game that ended otherwise) is over, and anyone may watch its replay
 * from any seat (the server says so in one place: api/auth.py, `ENDED`).
 */
const IN_PLAY = new Set(["waiting", "playing"]);
/** How long each version shows while the replay plays. */
const PLAY_MS = 1000;
/** Events after which the hand's result is shown, every hand face up. */
const AT_HAND_END = new Set(["hand_ended", "player_eliminated", "game_finished"]);

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function showReplay(root, gameId) {
  await new Replay(root, gameId).start();
}

/** @param {string | null} value @returns {Who} */
function whoOf(value) {
  if (value === "admin") return "public"; // the token is never in the address
  const seat = Number(value);
  return value !== null && value !== "" && Number.isInteger(seat) && seat >= 0 ? seat : "public";
}

/**
 * The view with no seat of its own: the page is nobody at the table, so a seat is
 * named by its name ("Ann"), not "Ann (you)".
 * @param {GameView} view
 * @returns {GameView}
 */
function unseated(view) {
  return { ...view, my_seat: null };
}

class Replay {
  /**
   * @param {HTMLElement} root
   * @param {string} gameId
   */
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    const query = new URLSearchParams(location.search);
    /** The version shown (asked for: 0 is the first). */
    this.version = Math.max(1, Number(query.get("version")) || 1);
    /** @type {Who} */
    this.who = whoOf(query.get("seat"));
    /** @type {string | null} kept in this page only, never stored */
    this.adminToken = null;
    this.last = 1;
    /** @type {GameView | null} the game as it ended, publicly */
    this.final = null;
    /** @type {Map<number, GameEvent>} by version */
    this.events = new Map();
    /** @type {Map<string, GameView>} by whose view and version */
    this.views = new Map();
    /** @type {GameView | null} */
    this.view = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.player = null;
    this.loading = false;
    /** The latest step asked for: an answer to an earlier one is not shown. */
    this.asked = 0;
    this.stage = h("div", { class: "replay-stage", id: "replay-stage" });
    this.counter = h("p", { class: "status", id: "replay-counter" });
    this.said = h("p", { class: "replay-event", id: "replay-event" });
    this.slider = h("input", { type: "range", id: "replay-version", min: 1, max: 1, step: 1, value: 1 });
    this.seatSelect = h("select", { id: "replay-seat" });
    this.playButton = h("button", { type: "button", "aria-pressed": "false", "aria-keyshortcuts": "Space", "data-focus": "replay-play" }, "Play");
  }

  async start() {
    document.title = "Rummy: replay";
    replace(this.root, h("p", { class: "loading" }, "Finding the game…"));
    try {
      this.final = await getGame(this.gameId, null);
    } catch (error) {
      replace(this.root, h("p", {}, h("a", { href: "/play" }, "Back to the lobby")));
      showProblem(error);
      return;
    }
    const gamePage = `/play?game=${encodeURIComponent(this.gameId)}`;
    if (IN_PLAY.has(this.final.status)) {
      replace(
        this.root,
        h(
          "section",
          { class: "panel", "aria-labelledby": "replay-title" },
          h("h2", { id: "replay-title" }, "Replay"),
          h("p", {}, "This game is still being played: its replay opens once it is over."),
          h("p", {}, h("a", { href: gamePage }, "Back to the game")),
        ),
      );
      return;
    }
    this.last = this.final.version;
    this.version = Math.min(this.version, this.last);
    if (typeof this.who === "number" && !this.final.players.some((player) => player.seat === this.who)) this.who = "public";
    await this.loadEvents();
    this.root.dataset.replay = "true";
    replace(this.root, this.controls(gamePage), this.stage);
    document.addEventListener("keydown", (event) => this.keys(event));
    await this.show(this.version);
  }

  /** Every event of the game, as this page's caller may see it. */
  async loadEvents() {
    this.events.clear();
    let after = 0;
    for (;;) {
      const page = await getEvents(this.gameId, after, this.adminToken);
      for (const event of page.events) this.events.set(event.version, event);
      const last = page.events[page.events.length - 1];
      if (!page.more || !last) return;
      after = last.version;
    }
  }

  /** @param {string} gamePage */
  controls(gamePage) {
    const final = this.final;
    if (!final) return null;
    this.slider.max = String(this.last);
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.drawSeats();
    this.seatSelect.addEventListener("change", () => {
      const chosen = this.seatSelect.value;
      this.who = chosen === "admin" ? "admin" : chosen === "public" ? "public" : Number(chosen);
      this.show(this.version);
    });
    this.playButton.addEventListener("click", () => this.togglePlay());
    /**
     * A button named by its word; its arrow is decoration.
     * @param {string} before
     * @param {string} text
     * @param {string} after
     * @param {string} keys
     * @param {() => void} run
     */
    const step = (before, text, after, keys, run) =>
      h(
        "button",
        { type: "button", "aria-keyshortcuts": keys, "data-focus": `replay-${keys}`, onclick: run },
        before ? h("span", { "aria-hidden": "true" }, `${before} `) : null,
        text,
        after ? h("span", { "aria-hidden": "true" }, ` ${after}`) : null,
      );
    const token = h("input", { type: "password", id: "replay-admin-token", autocomplete: "off" });
    const variant = final.variant.charAt(0).toUpperCase() + final.variant.slice(1);
    return h(
      "section",
      { class: "panel replay", "aria-labelledby": "replay-title" },
      h(
        "div",
        { class: "topline" },
        h("h2", { id: "replay-title" }, `Replay: ${variant}, ${final.players.map((player) => player.name ?? "open seat").join(", ")}`),
        h("a", { href: gamePage }, "The game's page"),
      ),
      this.counter,
      this.said,
      h(
        "div",
        { class: "replay-buttons", role: "group", "aria-label": "Step through the game" },
        step("«", "First", "", "Home", () => this.show(1)),
        step("‹", "Back", "", "ArrowLeft", () => this.show(this.version - 1)),
        this.playButton,
        step("", "Forward", "›", "ArrowRight", () => this.show(this.version + 1)),
        step("", "Last", "»", "End", () => this.show(this.last)),
      ),
      h("div", { class: "row" }, h("label", { for: "replay-version" }, "Move"), this.slider),
      h("div", { class: "row" }, h("label", { for: "replay-seat" }, "View from"), this.seatSelect),
      h(
        "details",
        { class: "replay-admin" },
        h("summary", {}, "Admin: every hand"),
        h(
          "form",
          {
            class: "join",
            onsubmit: async (/** @type {Event} */ event) => {
              event.preventDefault();
              await this.useAdmin(token.value.trim());
            },
          },
          h("label", { for: "replay-admin-token" }, "Admin token"),
          token,
          h("button", { type: "submit" }, "Show every hand"),
        ),
        h("p", { class: "hint" }, "The token stays in this page: it is sent to this server only, and forgotten when you leave."),
      ),
      h("p", { class: "hint" }, "Keys: ← and → step through the moves, Home and End go to the first and the last, Space plays or pauses."),
    );
  }

  drawSeats() {
    const final = this.final;
    if (!final) return;
    replace(
      this.seatSelect,
      h("option", { value: "public" }, "The public (no hand)"),
      final.players.map((player) => h("option", { value: player.seat }, `${player.name ?? `Seat ${player.seat + 1}`}'s seat`)),
      this.adminToken ? h("option", { value: "admin" }, "Admin: every hand") : null,
    );
    this.seatSelect.value = String(this.who);
  }

  /** @param {string} token */
  async useAdmin(token) {
    if (!token) return;
    try {
      // The token is checked by asking the admin's view of the shown version.
      const view = await getReplay(this.gameId, this.version, null, token);
      this.adminToken = token;
      this.views.set(`admin:${this.version}`, view);
      await this.loadEvents();
      this.who = "admin";
      this.drawSeats();
      await this.show(this.version);
    } catch (error) {
      showProblem(error);
    }
  }

  /** @param {KeyboardEvent} event */
  keys(event) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const target = event.target;
    // The slider, the select and the token field keep their own keys; a focused
    // button its Space and Enter.
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    if (target instanceof HTMLButtonElement && (event.key === " " || event.key === "Enter")) return;
    if (target instanceof HTMLElement && target.closest("summary")) return;
    /** @type {Record<string, () => void>} */
    const actions = {
      ArrowLeft: () => this.show(this.version - 1),
      ArrowRight: () => this.show(this.version + 1),
      Home: () => this.show(1),
      End: () => this.show(this.last),
      " ": () => this.togglePlay(),
    };
    const run = actions[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  }

  togglePlay() {
    if (this.player !== null) {
      this.pause();
      return;
    }
    if (this.version >= this.last) this.show(1);
    this.playButton.textContent = "Pause";
    this.playButton.setAttribute("aria-pressed", "true");
    this.player = setInterval(() => {
      if (this.loading) return;
      if (this.version >= this.last) this.pause();
      else this.show(this.version + 1);
    }, PLAY_MS);
  }

  pause() {
    if (this.player !== null) clearInterval(this.player);
    this.player = null;
    this.playButton.textContent = "Play";
    this.playButton.setAttribute("aria-pressed", "false");
  }

  /** @param {number} asked */
  async show(asked) {
    const version = Math.min(Math.max(1, asked), this.last);
    const who = this.who;
    const key = `${who}:${version}`;
    const ticket = ++this.asked;
    this.version = version;
    this.slider.value = String(version);
    this.loading = true;
    this.root.setAttribute("aria-busy", "true");
    try {
      let view = this.views.get(key);
      if (!view) {
        view = await getReplay(this.gameId, version, typeof who === "number" ? who : null, who === "admin" ? this.adminToken : null);
        this.views.set(key, view);
      }
      if (ticket !== this.asked) return;
      this.view = view;
      this.render();
    } catch (error) {
      if (ticket === this.asked) showProblem(error);
    } finally {
      if (ticket === this.asked) {
        this.loading = false;
        this.root.setAttribute("aria-busy", "false");
      }
    }
  }

  render() {
    const view = this.view;
    if (!view) return;
    const named = unseated(view);
    const event = this.events.get(view.version);
    this.root.dataset.version = String(view.version);
    this.root.dataset.who = String(this.who);
    const url = `/play?game=${encodeURIComponent(this.gameId)}&replay&version=${view.version}${typeof this.who === "number" ? `&seat=${this.who}` : ""}`;
    history.replaceState(null, "", url);
    this.counter.textContent = `Move ${view.version} of ${this.last}`;
    this.said.textContent = event ? describe(event, named) ?? event.type.replaceAll("_", " ") : "";
    document.title = `Rummy: replay, move ${view.version} of ${this.last}`;
    const ended = event && AT_HAND_END.has(event.type) && view.last_hand;
    replace(
      this.stage,
      ended && view.last_hand ? handResult(named, view.last_hand, null) : null,
      view.version === this.last ? this.standings(named) : null,
      h("div", { class: "layout" }, this.players(named), h("div", { class: "board" }, this.piles(view), this.melds(named), this.shows(named))),
      this.hands(named),
    );
  }

  /** @param {GameView} view */
  standings(view) {
    return h(
      "section",
      { class: "panel game-over", "aria-labelledby": "replay-over-title" },
      h("h2", { id: "replay-over-title" }, `Game over: ${nameOf(view, view.winner)} won.`),
      h("ol", { class: "standings" }, standings(view).map((player) => h("li", { "data-seat": player.seat }, `${nameOf(view, player.seat)}: ${player.score}`))),
    );
  }

  /** @param {GameView} view */
  players(view) {
    return h(
      "section",
      { class: "panel players", "aria-labelledby": "replay-players-title" },
      h("h2", { id: "replay-players-title" }, "Players"),
      h(
        "ol",
        {},
        view.players.map((player) => {
          const turn = view.turn === player.seat && view.status === "playing";
          return h(
            "li",
            { class: `player${turn ? " turn" : ""}`, "aria-current": turn ? "true" : null, "data-seat": player.seat },
            h("span", { class: "name" }, player.name === null ? "Open seat" : nameOf(view, player.seat)),
            view.dealer === player.seat ? h("span", { class: "tag" }, "dealer") : null,
            turn ? h("span", { class: "tag turn-tag" }, "to play") : null,
            h("span", { class: "score" }, `${player.score} points`),
            view.status !== "waiting" ? h("span", { class: "count" }, `${player.hand_count} cards`) : null,
          );
        }),
      ),
    );
  }

  /** @param {GameView} view */
  piles(view) {
    if (view.status === "waiting") return null;
    return h(
      "section",
      { class: "piles", "aria-label": "Stock and discard pile" },
      h("div", { class: "pile stock" }, back(), h("span", { class: "pile-label" }, `Stock: ${view.stock_count}`)),
      // 500 Rum's pile is spread: every card shown, nothing to take in a replay.
      spreadOf(view)
        ? spreadPile(view, spreadOf(view) ?? [], [], () => {})
        : h(
            "div",
            { class: "pile discard" },
            view.discard_top ? face(view.discard_top) : h("span", { class: "card empty" }, "–"),
            h("span", { class: "pile-label" }, `Pile: ${view.discard_count}`),
          ),
      handTerms(view),
      view.wild?.indicator ? h("div", { class: "pile wild" }, h("span", { class: "pile-label" }, "Wild"), face(view.wild.indicator)) : null,
    );
  }

  /** @param {GameView} view */
  melds(view) {
    if (view.status === "waiting" || view.melds.length === 0) return null;
    return h(
      "section",
      { class: "panel melds", "aria-labelledby": "replay-melds-title" },
      h("h2", { id: "replay-melds-title" }, "Melds on the table"),
      h(
        "ul",
        {},
        view.melds.map((meld) =>
          h(
            "li",
            { "data-meld": meld.id },
            h(
              "div",
              { class: "meld" },
              h("span", { class: "owner" }, `${nameOf(view, meld.owner)}: ${meld.kind}`),
              h("span", { class: "cards" }, meld.cards.map((code, index) => face(code, meld.as?.[index] ?? null))),
            ),
          ),
        ),
      ),
    );
  }

  /** Indian Rummy's show: the groups each seat has shown. @param {GameView} view */
  shows(view) {
    const shows = view.shows ?? [];
    if (shows.length === 0) return null;
    return h(
      "section",
      { class: "panel shows", "aria-labelledby": "replay-shows-title" },
      h("h2", { id: "replay-shows-title" }, "Shows"),
      h(
        "ul",
        {},
        shows.map((show) =>
          h(
            "li",
            { "data-seat": show.seat },
            h("span", { class: "owner" }, `${nameOf(view, show.seat)}${show.valid === false ? ": wrong show" : show.valid ? ": valid declaration" : ""}`),
            show.groups.map((group) => h("span", { class: `group ${group.kind}` }, h("small", {}, group.kind.replaceAll("_", " ")), group.cards.map((code) => face(code)))),
            h("span", { class: "score" }, `${show.points} points`),
          ),
        ),
      ),
    );
  }

  /** The hands the view shows: the seat's own, or with the admin's every one. @param {GameView} view */
  hands(view) {
    const seat = this.view?.my_seat;
    /** @type {[number, readonly string[]][]} */
    const shown = view.hidden
      ? view.hidden.hands.map((cards, index) => [index, cards])
      : seat !== null && seat !== undefined && this.view?.my_hand
        ? [[seat, this.view.my_hand]]
        : [];
    if (shown.length === 0) {
      return h("section", { class: "panel hands", "aria-label": "Hands" }, h("p", { class: "hint" }, "The public sees no hand: choose a seat to see its cards."));
    }
    return h(
      "section",
      { class: "panel hands", "aria-labelledby": "replay-hands-title" },
      h("h2", { id: "replay-hands-title" }, shown.length === 1 ? "Hand" : "Hands"),
      h(
        "ul",
        { class: "replay-hands" },
        shown.map(([index, cards]) =>
          h("li", { "data-seat": index }, h("span", { class: "owner" }, `${nameOf(view, index)} (${cards.length})`), h("span", { class: "cards" }, cards.map((code) => face(code)))),
        ),
      ),
    );
  }
}
