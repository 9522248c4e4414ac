// A game's page: the table as the caller may see it, kept live by the stream,
// and the moves the server's `legal` block offers, made by clicking (or the
// keyboard). The page never judges a move itself: what it offers comes from
// `legal`, and whatever the server refuses is shown with its own words.

import * as actions from "./actions.js";
import { Problem, act, getGame, joinGame, leave } from "./api.js";
import { checkAudit } from "./audit.js";
import { observeEvent, secondsLeft, spell } from "./clock.js";
import { PACK, back, bySuit, face, isWild, label, labels, named, sameCards, spoken, without } from "./cards.js";
import { h, replace } from "./dom.js";
import { arrangementPanel, deadwoodHint, ginLegal, handTerms, knockArrangement, loose, offerStatus, perSeat } from "./gin.js";
import { describe, isEvent, nameOf, whose } from "./log.js";
import { clearNotice, showNote, showProblem } from "./notice.js";
import { gameResult, handResult } from "./results.js";
import { calledCard, calledHint, pileCounts, spreadOf, spreadPile } from "./rum500.js";
import { forgetSeat, gameLink, keepSeat, seatOf } from "./seats.js";
import { follow } from "./stream.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").Legal} Legal */
/** @typedef {import("./types").MeldView} MeldView */
/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").LayOffOption} LayOffOption */
/** @typedef {import("./types").SwapOption} SwapOption */
/** @typedef {import("./types").Show} Show */
/** @typedef {import("./types").GameEvent} GameEvent */
/** @typedef {import("./types").LastHand} LastHand */
/** @typedef {import("./types").PlayerSummary} PlayerSummary */
/** @typedef {import("./seats.js").Seat} Seat */
/** @typedef {import("./audit.js").Check} Check */

/**
 * Cards put aside for a request the server judges whole: a concealed going out
 * (its melds, each with what its wilds stand for if the player says), an Indian
 * declaration or show (its groups).
 * @typedef {object} Group
 * @property {string[]} cards
 * @property {(string | null)[]} as null: the server reads the wild
 */

/**
 * A choice offered in the chooser dialog.
 * @typedef {object} Choice
 * @property {string} text
 * @property {() => void} choose
 */

/** @typedef {"none" | "go_out" | "declare" | "submit"} Builder */

const LOG_LINES = 60;
/** The last seconds of a turn clock, shown as urgent. */
const URGENT_SECONDS = 10;
/** Variants whose melds never go on the table (a knock's and a declaration's are shown in the result). */
const NO_TABLE_MELDS = new Set(["knock", "indian", "gin"]);

/** "your run" → "Your run". @param {string} text */
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
/** How many events before the view's version the stream starts with, for "What happened". */
const HISTORY = 30;

/**
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function showGame(root, gameId) {
  const page = new GamePage(root, gameId);
  await page.start();
}

class GamePage {
  /**
   * @param {HTMLElement} root
   * @param {string} gameId
   */
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    /** @type {Seat | null} */
    this.seat = seatOf(gameId);
    /** @type {GameView | null} */
    this.view = null;
    /** @type {number[]} indices into the shown hand */
    this.selected = [];
    /** @type {string[]} the shown hand the selection was made in */
    this.selectedIn = [];
    /** @type {Group[]} */
    this.groups = [];
    /** @type {SwapOption | null} a swap waiting for the meld that uses its wild */
    this.pendingSwap = null;
    /** @type {number | null} the version a move in flight was sent from */
    this.sentFrom = null;
    this.sortBySuit = sessionStorage.getItem("rummy.sort") === "suit";
    this.busy = false;
    this.confirmingDrop = false;
    /** @type {"connecting" | "live" | "reconnecting" | "ended"} */
    this.connection = "connecting";
    /** @type {string[]} */
    this.log = [];
    /** @type {Map<number, LastHand>} every hand result the page has met, by hand number */
    this.results = new Map();
    /** @type {Check[] | null} */
    this.checks = null;
    /** @type {string | null} */
    this.auditFailure = null;
    this.auditStarted = false;
    /** @type {{stop: () => void} | null} */
    this.stream = null;
    /** @type {ReturnType<typeof setInterval> | null} the countdown's ticks */
    this.ticker = null;
    this.seenHand = Number(sessionStorage.getItem(this.ackKey()) ?? "0");
  }

  ackKey() {
    return `rummy.seen-hand.${this.gameId}`;
  }

  get token() {
    return this.seat?.token ?? null;
  }

  /** @returns {Promise<void>} */
  async start() {
    document.title = "Rummy";
    replace(this.root, h("p", { class: "loading" }, "Finding the table…"));
    try {
      this.view = await getGame(this.gameId, this.token);
    } catch (error) {
      if (error instanceof Problem && this.seat && (error.status === 401 || error.status === 403)) {
        // A seat this server no longer knows (a game on a server that kept no store).
        forgetSeat(this.gameId);
        this.seat = null;
        showProblem(error);
        return this.start();
      }
      replace(this.root, h("p", {}, h("a", { href: "/play" }, "Back to the lobby")));
      showProblem(error);
      return;
    }
    // A page opened afresh shows the latest result it has not dismissed, not older ones
    // the stream's history brings back.
    this.seenHand = Math.max(this.seenHand, (this.view.last_hand?.hand_number ?? 0) - 1);
    this.render();
    this.listen();
    // The countdown is redrawn on its own, a few times a second, not the whole table.
    this.ticker = setInterval(() => this.renderCountdown(), 250);
  }

  listen() {
    this.stream?.stop();
    if (!this.view || isOver(this.view)) return;
    this.stream = follow(this.gameId, this.token, Math.max(0, this.view.version - HISTORY), {
      view: (view) => this.receive(view),
      event: (event) => this.record(event),
      state: (state, problem) => {
        this.connection = state;
        if (problem && state === "ended") showProblem(problem);
        this.renderConnection();
      },
    });
  }

  /**
   * A view from the stream or an action's answer: shown if it is newer (or
   * `always`, after a move, when the stream may have shown it first).
   * @param {GameView} view
   * @param {boolean} [always]
   */
  receive(view, always = false) {
    const newer = !this.view || view.version > this.view.version;
    if (newer) {
      if (this.sentFrom !== null && view.version > this.sentFrom) this.forgetChoices();
      this.view = view;
    }
    if (newer || always) this.render();
  }

  /**
   * The choices a sent move used up (its selected cards, groups, a held swap) are
   * forgotten when the first view after the move arrives, from the answer or, if
   * it came first, from the stream: a card the player selects after that is kept.
   */
  forgetChoices() {
    this.sentFrom = null;
    this.selected = [];
    this.groups = [];
    this.pendingSwap = null;
    this.confirmingDrop = false;
  }

  /** @param {GameEvent} event */
  record(event) {
    if ("at" in event && typeof event.at === "string") observeEvent(event.at, Date.now());
    if (isEvent(event, "hand_ended")) {
      // A bot may end the next hand in the same request: each result is shown in turn.
      this.results.set(event.hand_number, event);
      if (event.hand_number > this.seenHand && !isOver(this.view)) this.render();
    }
    const line = describe(event, this.view);
    if (line === null) return;
    this.log.push(line);
    if (this.log.length > LOG_LINES) this.log.shift();
    const list = this.root.querySelector(".log ol");
    if (list instanceof HTMLElement) {
      list.append(h("li", {}, line));
      while (list.childElementCount > LOG_LINES) list.firstElementChild?.remove();
    }
  }

  // --- state the page derives from the view ------------------------------------------

  /** @returns {Legal} */
  legal() {
    return this.view?.legal ?? { draw: [], melds: [], lay_offs: [], discard: [] };
  }

  myTurn() {
    const view = this.view;
    return !!view && view.status === "playing" && view.my_seat !== null && view.my_seat !== undefined && view.turn === view.my_seat && !this.gone();
  }

  /** The page's own seat as the view lists it, if it has one. @returns {PlayerSummary | null} */
  me() {
    const view = this.view;
    if (!view || view.my_seat === null || view.my_seat === undefined) return null;
    return view.players.find((player) => player.seat === view.my_seat) ?? null;
  }

  /** Whether the page's seat has left the game (its token still reads it). */
  gone() {
    return !!this.me()?.left;
  }

  /** @returns {Builder} */
  builder() {
    const legal = this.legal();
    const phase = this.view?.phase;
    if (legal.can_submit) return "submit";
    if (legal.can_declare && phase === "play") return "declare";
    if (legal.can_go_out && phase === "play") return "go_out";
    return "none";
  }

  /** The hand as shown: less the cards put aside, with a swapped wild taken in. */
  shownHand() {
    let hand = [...(this.view?.my_hand ?? [])];
    if (this.pendingSwap) hand = [...without(hand, [this.pendingSwap.card]), this.pendingSwap.wild];
    hand = without(
      hand,
      this.groups.flatMap((group) => group.cards),
    );
    return this.sortBySuit ? bySuit(hand) : hand;
  }

  /** The selected cards, in the shown order. */
  selection() {
    const hand = this.shownHand();
    if (hand.join() !== this.selectedIn.join()) {
      this.selected = [];
      this.selectedIn = hand;
    }
    return this.selected.map((index) => hand[index]).filter((code) => code !== undefined);
  }

  /** Whether the player may do anything with the selection now. */
  canPlay() {
    return this.myTurn() && !this.busy && this.view?.phase === "play";
  }

  // --- moves -----------------------------------------------------------------------

  /**
   * Send one request of actions; show the new view or the problem.
   * @param {Action[]} actions
   * @param {{onProblem?: (problem: Problem) => boolean}} [options] onProblem: true if handled
   */
  async send(actions, options = {}) {
    const view = this.view;
    const token = this.token;
    if (!view || !token) return;
    await this.request(() => act(this.gameId, token, actions, view.version), options);
  }

  /**
   * One request that answers the player's new view (a move, a leave): shown, or
   * its problem.
   * @param {() => Promise<GameView>} sent
   * @param {{onProblem?: (problem: Problem) => boolean}} [options] onProblem: true if handled
   */
  async request(sent, { onProblem } = {}) {
    if (this.busy) return;
    this.busy = true;
    this.root.dataset.busy = "true";
    this.sentFrom = this.view?.version ?? null;
    try {
      const next = await sent();
      clearNotice();
      this.idle();
      this.receive(next, true);
      this.sentFrom = null;
    } catch (error) {
      this.sentFrom = null;
      this.idle();
      if (error instanceof Problem && error.code === "version_conflict") {
        showNote("The game moved on before your move arrived, so nothing was played. Here is the table now: choose again.");
        await this.refresh();
        return;
      }
      if (!(error instanceof Problem && onProblem?.(error))) showProblem(error);
      this.render();
    }
  }

  idle() {
    this.busy = false;
    this.root.dataset.busy = "false";
  }

  async refresh() {
    try {
      this.receive(await getGame(this.gameId, this.token), true);
    } catch (error) {
      showProblem(error);
    }
  }

  /** @param {"stock" | "discard"} source @param {number} [count] cards off the pile's top (500 Rum) */
  draw(source, count = 1) {
    this.send([actions.draw(source, count)]);
  }

  /** Gin Rummy: decline the upcard. */
  pass() {
    this.send([actions.pass()]);
  }

  /**
   * Gin Rummy: knock with `card` (null: big gin) and the arrangement shown.
   * @param {string | null} card
   * @param {readonly (readonly string[])[]} melds
   */
  ginKnock(card, melds) {
    this.send([actions.ginKnock(card, melds)]);
  }

  /** Meld the selected cards as `legal.melds` lists them. @param {string[]} cards */
  meld(cards) {
    this.send([actions.meld(cards)], {
      onProblem: (problem) => {
        if (problem.code !== "wild_ambiguous") return false;
        const readings = (this.legal().meld_readings ?? []).filter((reading) => sameCards(reading.cards, cards));
        if (readings.length === 0) return false;
        // The problem's detail speaks to a client's author (`as`): the player is told
        // what to choose instead.
        this.choose(
          "What do the wild cards stand for?",
          "These cards make a meld in more than one way. Choose the card each wild stands for.",
          readings.map((reading) => ({
            text: reading.cards
              .map((code, index) => (code === reading.as[index] ? label(code) : `${label(code)} as ${label(reading.as[index] ?? code)}`))
              .join(", "),
            choose: () => this.send([actions.meld(reading.cards, reading.as)]),
          })),
        );
        return true;
      },
    });
  }

  /** @param {LayOffOption} option */
  layOff(option) {
    this.send([actions.layOff(option.card, option.meld_id, option.as)]);
  }

  /** @param {SwapOption} option */
  swap(option) {
    if (this.view?.rules.swapped_wild === "meld_now") {
      // The wild must leave the hand in the same request: hold the swap until then.
      this.pendingSwap = option;
      this.selected = [];
      this.render();
      return;
    }
    this.send([actions.swap(option.meld_id, option.card)]);
  }

  /**
   * A move after a held swap: the two go in one request.
   * @param {Action} action
   */
  withSwap(action) {
    const swap = this.pendingSwap;
    if (!swap) return;
    this.send([actions.swap(swap.meld_id, swap.card), action]);
  }

  /** @param {string} card */
  discard(card) {
    this.send([actions.discard(card)]);
  }

  /** @param {string} card */
  knock(card) {
    this.send([actions.knock(card)]);
  }

  /** Put the selected cards aside as a group. */
  group() {
    const cards = this.selection();
    if (cards.length === 0) return;
    this.groups.push({ cards, as: cards.map(() => null) });
    this.selected = [];
    this.render();
  }

  /** @param {number} index */
  ungroup(index) {
    this.groups.splice(index, 1);
    this.render();
  }

  /** The groups as melds of a concealed going out, then the last card's discard. */
  goOut() {
    const request = this.groups.map((group) =>
      actions.meld(group.cards, group.as.some((stands) => stands !== null) ? group.cards.map((code, index) => group.as[index] ?? code) : null),
    );
    const rest = this.shownHand();
    if (rest.length === 1 && rest[0] !== undefined) request.push(actions.discard(rest[0]));
    this.send(request);
  }

  declare() {
    const [card] = this.shownHand();
    if (card === undefined) return;
    this.send([actions.declare(card, this.groups.map((group) => group.cards))]);
  }

  submitGroups() {
    this.send([actions.submitGroups(this.groups.map((group) => group.cards))]);
  }

  drop() {
    this.send([actions.drop()]);
  }

  /**
   * Ask before leaving for good, saying what becomes of the seat under the
   * game's rule `abandon` (docs/rules.md "Leaving and turn clocks").
   * @param {boolean} resign
   */
  confirmLeave(resign) {
    const view = this.view;
    if (!view) return;
    const forfeit = resign || view.rules.abandon === "forfeit";
    const others = view.players.filter((player) => player.seat !== view.my_seat && !player.forfeited && player.status !== "eliminated");
    const last = others.length === 1 && others[0] ? ` With one player left in, the game ends now and ${nameOf(view, others[0].seat)} wins.` : "";
    const drop = forfeit && view.variant === "indian" && this.me()?.status === "in" ? " In this deal it counts as a drop." : "";
    const what = resign
      ? `You concede the game, whatever the table's rule: your seat plays no more and cannot win.${drop}${last}`
      : forfeit
        ? `At this table a player who leaves forfeits: your seat plays no more and cannot win.${drop}${last}`
        : `At this table a player who leaves is replaced by the server's bot (${String(view.rules.takeover_bot ?? "basic")}): it plays your seat, with your cards and score, to the end of the game, and may still win.`;
    this.choose(resign ? "Resign the game?" : "Leave the table?", `${what} You cannot take the seat back; this page goes on showing the game.`, [
      { text: resign ? "Yes, resign" : "Yes, leave the table", choose: () => this.leaveSeat(resign) },
    ]);
  }

  /** @param {boolean} resign */
  leaveSeat(resign) {
    const token = this.token;
    if (!token) return;
    this.request(() => leave(this.gameId, token, resign));
  }

  /**
   * A modal list of choices (a wild's reading, the meld to lay a card on).
   * @param {string} title
   * @param {string} detail
   * @param {Choice[]} choices
   */
  choose(title, detail, choices) {
    const dialog = document.getElementById("chooser");
    if (!(dialog instanceof HTMLDialogElement)) return;
    replace(
      dialog,
      h("h2", { id: "chooser-title" }, title),
      detail ? h("p", {}, detail) : null,
      h(
        "ul",
        { class: "choices" },
        choices.map((choice) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                onclick: () => {
                  dialog.close();
                  choice.choose();
                },
              },
              choice.text,
            ),
          ),
        ),
      ),
      h("button", { type: "button", class: "small", onclick: () => dialog.close() }, "Cancel"),
    );
    dialog.setAttribute("aria-labelledby", "chooser-title");
    dialog.showModal();
  }

  async join(/** @type {string} */ name) {
    try {
      const joined = await joinGame(this.gameId, name);
      keepSeat({ gameId: this.gameId, seat: joined.seat, name, token: joined.token });
      this.seat = seatOf(this.gameId);
      clearNotice();
      this.view = await getGame(this.gameId, this.token);
      this.render();
      this.listen();
    } catch (error) {
      showProblem(error);
    }
  }

  async checkTheAudit() {
    const view = this.view;
    if (!view || this.auditStarted) return;
    this.auditStarted = true;
    try {
      this.checks = await checkAudit(this.gameId, view);
    } catch (error) {
      this.auditFailure = error instanceof Problem ? error.detail : String(error);
    }
    this.render();
  }

  // --- drawing the page ------------------------------------------------------------

  render() {
    const view = this.view;
    if (!view) return;
    document.title = `Rummy: ${this.statusText()}`;
    // For tests and tools that wait for the page to show a version.
    this.root.dataset.version = String(view.version);
    this.root.dataset.status = view.status;
    const finished = isOver(view);
    if (view.last_hand) this.results.set(view.last_hand.hand_number, view.last_hand);
    // A new hand result waits for "Continue", the oldest first; the last one
    // shows with the game's.
    const unseen = [...this.results.keys()].filter((hand) => hand > this.seenHand).sort((a, b) => a - b);
    const newResult = finished || unseen[0] === undefined ? null : this.results.get(unseen[0]) ?? null;
    const lost = replace(
      this.root,
      h(
        "div",
        { class: "topline" },
        h("p", { class: "status", id: "status", role: "status", "aria-live": "polite" }, this.statusText()),
        h("span", { class: "countdown", id: "countdown", role: "timer", hidden: true }),
        h("span", { class: "connection", id: "connection" }),
      ),
      view.status === "waiting" ? this.waiting() : null,
      newResult ? handResult(view, newResult, () => this.acknowledge(newResult.hand_number)) : null,
      finished ? gameResult(view, this.checks, this.auditFailure) : null,
      finished && view.last_hand ? handResult(view, view.last_hand, null) : null,
      h(
        "div",
        { class: "layout" },
        this.players(),
        h("div", { class: "board" }, this.piles(), this.melds(), this.shows()),
      ),
      h("section", { class: "panel me", id: "me", "aria-label": "Your hand" }),
      !newResult && view.last_hand && !isOver(view)
        ? h("details", { class: "panel last-hand" }, h("summary", {}, `Last hand (${view.last_hand.hand_number})`), handResult(view, view.last_hand, null))
        : null,
      h(
        "details",
        { class: "panel log", open: matchMedia("(min-width: 60rem)").matches },
        h("summary", {}, "What happened"),
        h("ol", { "aria-live": "off" }, this.log.map((line) => h("li", {}, line))),
      ),
    );
    this.renderConnection();
    this.renderCountdown();
    this.renderHand();
    if (lost) this.refocus();
    if (finished) this.checkTheAudit();
  }

  /** @param {number} handNumber */
  acknowledge(handNumber) {
    this.seenHand = handNumber;
    sessionStorage.setItem(this.ackKey(), String(handNumber));
    this.render();
    this.refocus();
  }

  /**
   * Where the keyboard goes when the control it was on is gone (a move made, a
   * result dismissed): the next thing to do, else the first card of the hand.
   */
  refocus() {
    const next = this.root.querySelector(
      ".result button, .piles button, .moves button.primary, .hand button, .game-over a",
    );
    if (next instanceof HTMLElement) next.focus();
  }

  statusText() {
    const view = this.view;
    if (!view) return "";
    if (view.status === "waiting") {
      const open = view.players.filter((player) => player.name === null).length;
      return `Waiting for ${open} more ${open === 1 ? "player" : "players"}.`;
    }
    if (view.status === "finished") return `Game over: ${nameOf(view, view.winner)} won.`;
    if (view.status === "aborted") return "Game over: it reached a cap of its rules, with no winner.";
    const hand = `Hand ${view.hand_number}. `;
    if (this.gone()) {
      const seat = this.me()?.replaced ? "the bot plays your seat" : "you forfeited";
      return `${hand}You left the table: ${seat}. ${view.turn === view.my_seat ? "Your seat" : nameOf(view, view.turn)} is to play.`;
    }
    if (view.phase === "show") {
      return hand + (this.legal().can_submit ? "Show your groups: arrange them and submit." : "Waiting for the others to show their groups.");
    }
    if (view.phase === "upcard_offer") return hand + offerStatus(view, this.myTurn());
    if (!this.myTurn()) return `${hand}${nameOf(view, view.turn)}'s turn.`;
    const legal = this.legal();
    const called = calledCard(view);
    if (called && view.phase === "play") return `${hand}Your turn: meld or lay off ${label(called)}, the card you called, then discard.`;
    if (view.phase === "draw") {
      const deep = pileCounts(legal).some((count) => count > 1);
      const pile = deep ? " or take from the pile" : legal.draw.includes("discard") && view.discard_top ? ` or take ${label(view.discard_top)} from the pile` : "";
      return `${hand}Your turn: draw from the stock${pile}.`;
    }
    if (view.phase === "second_draw") return `${hand}Your turn: take a second card, from the stock or the pile.`;
    if (ginLegal(legal)) {
      const knocks = legal.knock?.length ? ", or knock with one" : "";
      return `${hand}Your turn: discard a card${knocks}${loose(legal).big_gin ? ", or go big gin" : ""}.`;
    }
    if (legal.knock) return `${hand}Your turn: discard a card, or knock with one.`;
    if (legal.can_declare) return `${hand}Your turn: discard, or declare with your groups.`;
    if (legal.can_go_out !== undefined && legal.can_go_out !== null) {
      return `${hand}Your turn: ${legal.can_go_out ? "you can go out: put all your cards in melds, then discard the last" : "discard a card"}.`;
    }
    return `${hand}Your turn: meld or lay off if you like, then discard.`;
  }

  /**
   * The countdown of the seat the game waits for, from the view's `turn_deadline`
   * by the server's clock (clock.js); hidden when the game has no clock.
   */
  renderCountdown() {
    const shown = this.root.querySelector("#countdown");
    const view = this.view;
    if (isOver(view) && this.ticker !== null) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
    if (!(shown instanceof HTMLElement)) return;
    const deadline = view?.status === "playing" ? view.turn_deadline : null;
    if (!view || !deadline) {
      shown.hidden = true;
      delete shown.dataset.seconds;
      return;
    }
    const seconds = secondsLeft(deadline);
    const who = view.phase === "show" ? "Time to show" : this.myTurn() ? "Your time" : nameOf(view, view.turn);
    shown.hidden = false;
    const up = this.myTurn() ? "Your time is up" : `${who}: time is up`;
    shown.textContent = seconds > 0 ? `${who}: ${spell(seconds)}` : up;
    shown.title = "Time left for the turn; when it runs out, the server's bot moves for the seat.";
    shown.dataset.seconds = String(seconds);
    shown.dataset.seat = view.turn === null || view.turn === undefined ? "" : String(view.turn);
    shown.classList.toggle("urgent", seconds <= URGENT_SECONDS);
  }

  renderConnection() {
    const shown = this.root.querySelector("#connection");
    if (!(shown instanceof HTMLElement)) return;
    const text = {
      connecting: "connecting…",
      live: "live",
      reconnecting: "reconnecting…",
      ended: isOver(this.view) ? "" : "not live",
    }[this.connection];
    shown.textContent = text;
    shown.dataset.state = this.connection;
  }

  waiting() {
    const view = this.view;
    if (!view) return null;
    const link = gameLink(this.gameId);
    const input = h("input", { type: "text", readonly: true, value: link, id: "join-link", "aria-label": "Join link", "data-focus": "join-link" });
    const open = view.players.some((player) => player.name === null);
    return h(
      "section",
      { class: "panel waiting", "aria-labelledby": "waiting-title" },
      h("h2", { id: "waiting-title" }, "Waiting for players"),
      h("p", {}, "Send this link to the friends who will take the open seats. The first hand is dealt when the last seat is taken."),
      h(
        "div",
        { class: "row link" },
        input,
        h(
          "button",
          {
            type: "button",
            "data-focus": "copy-link",
            onclick: async () => {
              input.select();
              try {
                await navigator.clipboard.writeText(link);
                showNote("The join link is copied.");
              } catch {
                showNote("Copy the selected link with Ctrl+C (⌘C).");
              }
            },
          },
          "Copy link",
        ),
      ),
      !this.seat && open ? this.joinForm() : null,
    );
  }

  joinForm() {
    const name = h("input", { id: "join-name", name: "name", required: true, maxlength: 64, autocomplete: "nickname" });
    return h(
      "form",
      {
        class: "join",
        "aria-label": "Take a seat",
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          if (name.value.trim()) this.join(name.value.trim());
        },
      },
      h("label", { for: "join-name" }, "Your name"),
      name,
      h("button", { type: "submit", class: "primary" }, "Take a seat"),
    );
  }

  players() {
    const view = this.view;
    if (!view) return null;
    const takeover = Number(view.rules.timeouts_before_takeover ?? 3);
    return h(
      "section",
      { class: "panel players", "aria-labelledby": "players-title" },
      h("h2", { id: "players-title" }, "Players"),
      h(
        "ol",
        {},
        view.players.map((player) => {
          const turn = view.turn === player.seat && view.status === "playing";
          return h(
            "li",
            {
              class: `player${turn ? " turn" : ""}${view.my_seat === player.seat ? " mine" : ""}`,
              "aria-current": turn ? "true" : null,
              "data-seat": player.seat,
            },
            h("span", { class: "name" }, player.name === null ? "Open seat" : nameOf(view, player.seat)),
            player.replaced
              ? h("span", { class: "tag left" }, "left — played by bot")
              : player.forfeited
                ? h("span", { class: "tag left" }, "forfeited")
                : player.left
                  ? h("span", { class: "tag left" }, "left")
                  : player.bot
                    ? h("span", { class: "tag" }, `computer: ${player.bot}`)
                    : null,
            player.timeouts
              ? h(
                  "span",
                  { class: "tag timeouts", title: `Timeouts in a row; ${takeover} take the seat over.` },
                  `${player.timeouts} ${player.timeouts === 1 ? "timeout" : "timeouts"} of ${takeover}`,
                )
              : null,
            player.time_bank_left != null
              ? h(
                  "span",
                  { class: "tag bank", title: "Time bank left: spent once the turn's clock runs out, never refilled." },
                  `bank ${player.time_bank_left} s`,
                )
              : null,
            view.dealer === player.seat ? h("span", { class: "tag", title: "the dealer" }, "dealer") : null,
            player.status && player.status !== "in" ? h("span", { class: "tag status" }, player.status.replaceAll("_", " ")) : null,
            turn ? h("span", { class: "tag turn-tag" }, "to play") : null,
            perSeat(view, "hands_won", player.seat) !== null
              ? h("span", { class: "tag hands-won" }, `hands won: ${perSeat(view, "hands_won", player.seat)}`)
              : null,
            perSeat(view, "melded_points", player.seat) !== null && view.status === "playing"
              ? h("span", { class: "tag melded", title: "The points this player has put down this hand." }, `put down: ${perSeat(view, "melded_points", player.seat)}`)
              : null,
            h("span", { class: "score" }, `${player.score} points`),
            view.status !== "waiting" ? h("span", { class: "count" }, `${player.hand_count} cards`) : null,
            player.known_cards && view.my_seat !== player.seat
              ? h(
                  "span",
                  { class: "tag known", title: "Cards everyone saw this player take face up, still in its hand." },
                  `holds ${labels(player.known_cards)}`,
                )
              : null,
          );
        }),
      ),
    );
  }

  piles() {
    const view = this.view;
    if (!view || view.status === "waiting") return null;
    const legal = this.legal();
    const can = this.myTurn() && !this.busy;
    const wild = view.wild;
    const spread = spreadOf(view);
    const offer = view.phase === "upcard_offer";
    return h(
      "section",
      { class: "piles", "aria-label": "Stock and discard pile" },
      h(
        "div",
        { class: "pile stock" },
        back(),
        h("span", { class: "pile-label" }, `Stock: ${view.stock_count}`),
        can && legal.draw.includes("stock")
          ? h("button", { type: "button", class: "primary", "data-focus": "draw-stock", onclick: () => this.draw("stock") }, view.phase === "second_draw" ? "Second card from the stock" : "Draw from the stock")
          : null,
      ),
      spread
        ? spreadPile(view, spread, can && legal.draw.includes("discard") ? pileCounts(legal) : [], (count) => this.draw("discard", count))
        : h(
            "div",
            { class: "pile discard" },
            view.discard_top ? face(view.discard_top) : h("span", { class: "card empty" }, "–"),
            h("span", { class: "pile-label" }, offer ? `Upcard (pile: ${view.discard_count})` : `Pile: ${view.discard_count}`),
            // Every card under the top was thrown face up: shown, as a player at the table remembers it.
            view.pile_below && view.pile_below.length
              ? h("span", { class: "pile-below", title: "The cards under the top, thrown face up, newest first." }, `under it: ${labels([...view.pile_below].reverse())}`)
              : null,
            can && legal.draw.includes("discard") && view.discard_top
              ? h("button", { type: "button", class: "primary", "data-focus": "draw-pile", onclick: () => this.draw("discard") }, `Take ${label(view.discard_top)}`)
              : null,
            // Gin Rummy's upcard offer: take it (above) or pass.
            can && loose(legal).can_pass
              ? h("button", { type: "button", "data-focus": "pass", onclick: () => this.pass() }, "Pass")
              : null,
          ),
      handTerms(view),
      wild
        ? h(
            "div",
            { class: "pile wild" },
            h("span", { class: "pile-label" }, "Wild"),
            wild.indicator ? face(wild.indicator) : null,
            h("span", {}, [wild.jokers ? `${wild.jokers} ${wild.jokers === 1 ? "joker" : "jokers"}` : null, wild.rank ? `every ${wild.rank}` : null].filter(Boolean).join(", ") || "none"),
          )
        : null,
      view.out_of_play_count ? h("div", { class: "pile out" }, h("span", { class: "pile-label" }, `Out of play: ${view.out_of_play_count}`)) : null,
    );
  }

  melds() {
    const view = this.view;
    if (!view || view.status === "waiting") return null;
    if (view.melds.length === 0 && NO_TABLE_MELDS.has(view.variant)) return null;
    const [card] = this.selection().length === 1 ? this.selection() : [];
    const legal = this.legal();
    return h(
      "section",
      { class: "panel melds", "aria-labelledby": "melds-title" },
      h("h2", { id: "melds-title" }, "Melds on the table"),
      view.melds.length === 0
        ? h("p", { class: "hint" }, "No melds yet.")
        : h(
            "ul",
            {},
            view.melds.map((meld) => {
              const layOffs = card && this.canPlay() && !this.pendingSwap ? legal.lay_offs.filter((option) => option.card === card && option.meld_id === meld.id) : [];
              const swaps = card && this.canPlay() && !this.pendingSwap ? (legal.swaps ?? []).filter((option) => option.card === card && option.meld_id === meld.id) : [];
              const held = card && this.canPlay() && this.pendingSwap ? [{ card, meld_id: meld.id }] : [];
              const content = [
                h("span", { class: "owner" }, capital(`${whose(view, meld.owner)} ${meld.kind}`)),
                h("span", { class: "cards" }, meld.cards.map((code, index) => face(code, meld.as?.[index] ?? null))),
                meld.laid_off.length
                  ? h("small", { class: "laid-off" }, "laid off: ", meld.laid_off.map((entry) => `${label(entry.card)} by ${nameOf(view, entry.seat)}`).join(", "))
                  : null,
              ];
              const targets = layOffs.length + swaps.length + held.length;
              return h(
                "li",
                { "data-meld": meld.id },
                targets
                  ? h(
                      "button",
                      {
                        type: "button",
                        class: "meld target",
                        "data-focus": `meld-${meld.id}`,
                        onclick: () => this.playOnto(meld, layOffs, swaps),
                      },
                      // Named by what it shows (the cards by their words), then what it does.
                      content,
                      h("span", { class: "sr-only" }, `: play ${spoken(card ?? "")} here`),
                    )
                  : h("div", { class: "meld" }, content),
              );
            }),
          ),
    );
  }

  /**
   * The selected card onto a meld: the one move there, or a choice of them.
   * @param {MeldView} meld
   * @param {LayOffOption[]} layOffs
   * @param {SwapOption[]} swaps
   */
  playOnto(meld, layOffs, swaps) {
    const [card] = this.selection();
    if (this.pendingSwap && card) {
      this.withSwap(actions.layOff(card, meld.id));
      return;
    }
    /** @type {Choice[]} */
    const choices = [
      ...layOffs.map((option) => ({ text: this.layOffText(option), choose: () => this.layOff(option) })),
      ...swaps.map((option) => ({ text: this.swapText(option), choose: () => this.swap(option) })),
    ];
    if (choices.length === 1) choices[0]?.choose();
    else this.choose(`Play ${label(card ?? "")} onto this meld`, "", choices);
  }

  /** @param {LayOffOption} option */
  layOffText(option) {
    const meld = this.view?.melds.find((entry) => entry.id === option.meld_id);
    const onto = meld ? `${whose(this.view, meld.owner)} ${meld.kind} ${labels(meld.cards)}` : option.meld_id;
    return `Lay off ${label(option.card)}${option.as ? ` as ${label(option.as)}` : ""} on ${onto}`;
  }

  /** @param {SwapOption} option */
  swapText(option) {
    const meld = this.view?.melds.find((entry) => entry.id === option.meld_id);
    const from = meld ? `${whose(this.view, meld.owner)} ${meld.kind}` : option.meld_id;
    return `Swap ${label(option.card)} for the ${label(option.wild)} in ${from}`;
  }

  shows() {
    const view = this.view;
    const shows = view?.shows ?? [];
    if (!view || shows.length === 0) return null;
    return h(
      "section",
      { class: "panel shows", "aria-labelledby": "shows-title" },
      h("h2", { id: "shows-title" }, "Shows"),
      h(
        "ul",
        {},
        shows.map((show) =>
          h(
            "li",
            { "data-seat": show.seat },
            h("span", { class: "owner" }, `${nameOf(this.view, show.seat)}${show.valid === false ? ": wrong show" : show.valid ? ": valid declaration" : ""}`),
            show.groups.map((group) => h("span", { class: `group ${group.kind}` }, h("small", {}, group.kind.replaceAll("_", " ")), group.cards.map((code) => face(code)))),
            h("span", { class: "score" }, `${show.points} points`),
          ),
        ),
      ),
    );
  }

  // --- the player's hand and moves -------------------------------------------------

  renderHand() {
    const mine = this.root.querySelector("#me");
    const view = this.view;
    if (!(mine instanceof HTMLElement) || !view) return;
    if (view.my_seat === null || view.my_seat === undefined) {
      replace(mine, h("p", { class: "hint" }, "You are watching this game."));
      mine.hidden = view.status !== "playing";
      return;
    }
    mine.hidden = view.status !== "playing";
    const hand = this.shownHand();
    const me = this.me();
    if (me?.left) {
      // Read-only: the seat's token still reads the game, its moves are the bot's or none.
      replace(
        mine,
        h("h2", {}, `Your hand (${hand.length})`),
        h("div", { class: "hand", "aria-label": "Your cards" }, hand.map((code) => face(code))),
        h(
          "p",
          { class: "hint" },
          me.replaced ? "You left this table: the server's bot plays your seat to the end of the game." : "You left this table and forfeited: your seat plays no more.",
        ),
      );
      return;
    }
    const selected = new Set(this.selection().length ? this.selected : []);
    // Jokers are wild in every game that has them; a wild rank only where the view says.
    const wildRank = view.wild ? view.wild.rank : null;
    const called = calledCard(view);
    const cards = h(
      "div",
      { class: "hand", role: "group", "aria-label": "Your cards", onkeydown: (/** @type {Event} */ event) => this.handKeys(/** @type {KeyboardEvent} */ (event)) },
      hand.map((code, index) =>
        h(
          "button",
          {
            type: "button",
            class: `card-button${selected.has(index) ? " selected" : ""}${code === called ? " called" : ""}`,
            "aria-pressed": String(selected.has(index)),
            "aria-label": named(code) + (isWild(code, wildRank) ? ", wild" : "") + (code === called ? ", the called card: meld it or lay it off this turn" : ""),
            title: code === called ? "The called card: meld it or lay it off this turn." : null,
            "data-card": code,
            "data-focus": `card-${index}`,
            onclick: () => this.toggle(index),
          },
          face(code, null, isWild(code, wildRank)),
        ),
      ),
    );
    const lost = replace(
      mine,
      h(
        "div",
        { class: "hand-head" },
        h("h2", {}, `Your hand (${hand.length}${this.groups.length ? " not in a group" : ""})`),
        h(
          "button",
          {
            type: "button",
            class: "small",
            "data-focus": "sort",
            onclick: () => {
              this.sortBySuit = !this.sortBySuit;
              sessionStorage.setItem("rummy.sort", this.sortBySuit ? "suit" : "rank");
              this.selected = [];
              this.renderHand();
            },
          },
          this.sortBySuit ? "Sort by rank" : "Sort by suit",
        ),
      ),
      this.groupsPanel(),
      cards,
      called && this.myTurn() ? calledHint(called) : null,
      deadwoodHint(this.legal(), view),
      h("div", { class: "moves", role: "group", "aria-label": "Moves" }, this.moves()),
      this.leaveButtons(),
    );
    if (lost) this.refocus();
  }

  /** Leave the table (as `abandon` says) or resign, each after a confirmation. */
  leaveButtons() {
    if (this.view?.status !== "playing") return null;
    // Indian: a seat whose valid declaration is being shown may not leave until the
    // show is over (the server answers 409 wrong_phase), so nothing is offered.
    if (this.view.phase === "show" && this.me()?.status === "declared") return null;
    return h(
      "div",
      { class: "leave", role: "group", "aria-label": "Leave the game" },
      h("button", { type: "button", class: "small", "data-focus": "leave", onclick: () => this.confirmLeave(false) }, "Leave table"),
      h("button", { type: "button", class: "small", "data-focus": "resign", onclick: () => this.confirmLeave(true) }, "Resign"),
    );
  }

  /** Arrow keys move between the cards. @param {KeyboardEvent} event */
  handKeys(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const buttons = [...this.root.querySelectorAll(".hand button")];
    const at = buttons.indexOf(/** @type {Element} */ (document.activeElement));
    if (at < 0) return;
    const next = buttons[at + (event.key === "ArrowRight" ? 1 : -1)];
    if (next instanceof HTMLElement) {
      next.focus();
      event.preventDefault();
    }
  }

  /** @param {number} index */
  toggle(index) {
    this.selection();
    this.selected = this.selected.includes(index) ? this.selected.filter((entry) => entry !== index) : [...this.selected, index].sort((a, b) => a - b);
    this.confirmingDrop = false;
    this.renderHand();
    // The table's melds become targets for a selected card.
    const board = this.root.querySelector(".board");
    if (board instanceof HTMLElement) replace(board, this.piles(), this.melds(), this.shows());
  }

  groupsPanel() {
    const mode = this.builder();
    if (mode === "none" || !this.myTurnOrShow()) return null;
    const wildRank = this.view?.wild?.rank ?? null;
    const title = { go_out: "Going out: all your cards in melds", declare: "Your declaration: group all but one card", submit: "Your groups" }[mode];
    return h(
      "div",
      { class: "groups", "aria-label": title },
      h("h3", {}, title),
      this.groups.length === 0
        ? h("p", { class: "hint" }, "Select cards and choose “Group”. Nothing is sent until you finish.")
        : h(
            "ol",
            {},
            this.groups.map((group, index) =>
              h(
                "li",
                { class: "group" },
                group.cards.map((code, position) =>
                  mode === "go_out" && isWild(code, wildRank)
                    ? h("span", { class: "wild-choice" }, face(code), this.standsFor(group, position))
                    : face(code),
                ),
                h("button", { type: "button", class: "small", "data-focus": `ungroup-${index}`, onclick: () => this.ungroup(index) }, "Ungroup"),
              ),
            ),
          ),
    );
  }

  myTurnOrShow() {
    return this.myTurn() || this.legal().can_submit === true;
  }

  /**
   * What a wild of a put-aside meld stands for (left to the server unless chosen).
   * @param {Group} group
   * @param {number} position
   */
  standsFor(group, position) {
    const code = group.cards[position] ?? "";
    const select = h(
      "select",
      { "aria-label": `${spoken(code)} stands for`, onchange: () => (group.as[position] = select.value || null) },
      h("option", { value: "" }, "as: let the server read it"),
      PACK.map((card) => h("option", { value: card }, `as ${label(card)}`)),
    );
    select.value = group.as[position] ?? "";
    return select;
  }

  moves() {
    const view = this.view;
    if (!view || view.status !== "playing") return [];
    const legal = this.legal();
    const picked = this.selection();
    const [card] = picked.length === 1 ? picked : [];
    const mode = this.builder();
    /** @type {HTMLElement[]} */
    const buttons = [];
    /**
     * @param {string} text
     * @param {() => void} run
     * @param {string} key
     * @param {boolean} [primary]
     */
    const button = (text, run, key, primary = false) =>
      buttons.push(h("button", { type: "button", class: primary ? "primary" : "", "data-focus": `move-${key}`, onclick: run }, text));

    if (legal.can_drop && view.phase === "draw" && this.myTurn()) {
      const points = legal.drop_points ?? 0;
      if (this.confirmingDrop) {
        button(`Yes, drop for ${points} points`, () => this.drop(), "drop-yes");
        button("Keep playing", () => {
          this.confirmingDrop = false;
          this.renderHand();
        }, "drop-no");
      } else {
        button(`Drop (${points} points)`, () => {
          this.confirmingDrop = true;
          this.renderHand();
        }, "drop");
      }
    }
    if (mode === "submit") {
      if (picked.length) button(`Group ${labels(picked)}`, () => this.group(), "group");
      button(`Submit ${this.groups.length} ${this.groups.length === 1 ? "group" : "groups"}`, () => this.submitGroups(), "submit", true);
      return buttons;
    }
    if (!this.canPlay()) {
      if (this.myTurn() && view.phase !== "play") return buttons;
      return buttons.length ? buttons : [h("p", { class: "hint" }, this.myTurn() ? "" : "Not your turn.")];
    }

    if (this.pendingSwap) {
      const swap = this.pendingSwap;
      buttons.push(h("p", { class: "hint" }, `${this.swapText(swap)}: now meld the ${label(swap.wild)} or lay it off (a meld on the table takes it).`));
      if (picked.length >= 3) button(`Meld ${labels(picked)}`, () => this.withSwap(actions.meld(picked)), "meld", true);
      button("Cancel the swap", () => {
        this.pendingSwap = null;
        this.render();
      }, "cancel-swap");
      return buttons;
    }

    if (mode !== "none") {
      if (picked.length) button(`Group ${labels(picked)}`, () => this.group(), "group");
      const rest = this.shownHand();
      if (mode === "go_out" && this.groups.length) {
        const last = rest[0];
        if (rest.length === 0) button("Go out", () => this.goOut(), "go-out", true);
        else if (rest.length === 1 && last !== undefined) button(`Go out: discard ${label(last)}`, () => this.goOut(), "go-out", true);
      }
      if (mode === "declare" && this.groups.length && rest.length === 1 && rest[0] !== undefined) {
        button(`Declare: finish with ${label(rest[0])}`, () => this.declare(), "declare", true);
      }
    }

    if (picked.length >= 3) {
      const meld = legal.melds.find((cards) => sameCards(cards, picked));
      if (meld) button(`Meld ${labels(picked)}`, () => this.meld(meld), "meld", true);
    }
    if (card !== undefined) {
      for (const option of legal.lay_offs.filter((entry) => entry.card === card)) {
        button(this.layOffText(option), () => this.layOff(option), `lay-off-${option.meld_id}-${option.as ?? ""}`);
      }
      for (const option of (legal.swaps ?? []).filter((entry) => entry.card === card)) {
        button(this.swapText(option), () => this.swap(option), `swap-${option.meld_id}-${option.wild}`);
      }
      if (legal.knock?.includes(card) && ginLegal(legal)) {
        // The arrangement is shown before the knock, and sent with it: what the player saw is what is scored.
        const arrangement = knockArrangement(view.my_hand ?? [], card);
        buttons.push(arrangementPanel(arrangement, `Knocking with ${label(card)} face down shows`));
        button(`Knock with ${label(card)}`, () => this.ginKnock(card, arrangement.melds), "knock", arrangement.count === 0);
      } else if (legal.knock?.includes(card)) button(`Knock with ${label(card)}`, () => this.knock(card), "knock");
      if (legal.discard.includes(card) && (mode !== "go_out" || this.groups.length === 0)) {
        button(`Discard ${label(card)}`, () => this.discard(card), "discard", true);
      }
    }
    if (loose(legal).big_gin === true && picked.length === 0) {
      const arrangement = knockArrangement(view.my_hand ?? [], null);
      buttons.push(arrangementPanel(arrangement, "Big gin shows"));
      button("Big gin: knock with every card in melds", () => this.ginKnock(null, arrangement.melds), "big-gin", true);
    }
    if (picked.length === 0) {
      const offered = legal.melds.length;
      buttons.push(h("p", { class: "hint" }, offered ? `Select cards to play. Melds you could lay now: ${offered}.` : "Select a card to play it."));
      if (offered) {
        buttons.push(
          h(
            "details",
            { class: "suggestions" },
            h("summary", {}, "Show them"),
            legal.melds.map((cards, index) => h("button", { type: "button", class: "small", "data-focus": `suggest-${index}`, onclick: () => this.meld(cards) }, `Meld ${labels(cards)}`)),
          ),
        );
      }
    }
    return buttons;
  }
}

/**
 * Whether the game is over: finished with a winner, or aborted without one (a
 * status this client does not know counts as over too: it cannot act in it).
 * @param {GameView | null | undefined} view
 * @returns {boolean}
 */
function isOver(view) {
  return !!view && !["waiting", "playing"].includes(view.status);
}
