// The service's HTTP API as docs/api.md describes it: JSON in and out, the
// player's token as a bearer header, problems (application/problem+json) as
// thrown `Problem`s, and actions sent with an Idempotency-Key and If-Match so
// that sending one again after a lost answer is safe. Every answer's `Date`
// header tells clock.js how the server's clock stands (the turn countdown).

import { observeDate } from "./clock.js";

/** @typedef {import("./types").GameView} GameView */
/** @typedef {import("./types").CreateGame} CreateGame */
/** @typedef {import("./types").CreatedGame} CreatedGame */
/** @typedef {import("./types").JoinedSeat} JoinedSeat */
/** @typedef {import("./types").LobbyPage} LobbyPage */
/** @typedef {import("./types").StreamTicket} StreamTicket */
/** @typedef {import("./types").AuditExport} AuditExport */
/** @typedef {import("./types").EventsPage} EventsPage */
/** @typedef {import("./types").Action} Action */
/** @typedef {import("./types").Leave} Leave */
/** @typedef {import("./types").ProblemBody} ProblemBody */

/** A refused request: the problem the service answered, or a failure to reach it. */
export class Problem extends Error {
  /**
   * @param {number} status 0 when the service could not be reached
   * @param {string} code
   * @param {string} title
   * @param {string} detail
   * @param {{key?: unknown, msg?: unknown}[]} [errors]
   */
  constructor(status, code, title, detail, errors = []) {
    super(`${title}: ${detail}`);
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fresh random key (a UUID): `crypto.randomUUID` exists only on secure
 * origins, `getRandomValues` everywhere.
 */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * @param {Response} response
 * @returns {Promise<Problem>}
 */
async function problemOf(response) {
  try {
    /** @type {ProblemBody} */
    const body = await response.json();
    return new Problem(response.status, body.code, body.title, body.detail, body.errors ?? []);
  } catch {
    return new Problem(response.status, "http_" + response.status, response.statusText || "Error", `The service answered ${response.status}.`);
  }
}

/**
 * One request; the parsed JSON of a 2xx answer, else a thrown Problem.
 * @param {string} method
 * @param {string} path
 * @param {{token?: string | null, body?: unknown, headers?: Record<string, string>}} [options]
 * @returns {Promise<any>}
 */
async function call(method, path, { token = null, body = undefined, headers = {} } = {}) {
  /** @type {Record<string, string>} */
  const sent = { Accept: "application/json", ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  const sentAt = Date.now();
  try {
    response = await fetch(path, {
      method,
      headers: sent,
      body: body === undefined ? null : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new Problem(0, "unreachable", "No connection", "The service could not be reached. Check the connection; the page tries again.");
  }
  observeDate(response.headers.get("Date"), sentAt, Date.now());
  if (!response.ok) throw await problemOf(response);
  return response.status === 204 ? null : response.json();
}

/** Answers that mean "the same request again later may succeed", per docs/api.md "Retries". */
const AGAIN = new Set(["unreachable", "rate_limited", "store_unavailable", "write_conflict", "too_many_streams"]);

/**
 * `send()` until it succeeds or fails for a reason that sending again cannot fix
 * (each call sends the same request, with the same Idempotency-Key).
 * @template T
 * @param {() => Promise<T>} send
 * @returns {Promise<T>}
 */
async function withRetries(send) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof Problem) || !AGAIN.has(error.code) || attempt >= 4) throw error;
      await sleep(400 * 2 ** attempt);
    }
  }
}

const games = (/** @type {string} */ id) => `/games/${encodeURIComponent(id)}`;

/** @param {CreateGame} body @returns {Promise<CreatedGame>} */
export function createGame(body) {
  const key = newKey();
  return withRetries(() => call("POST", "/games", { body, headers: { "Idempotency-Key": key } }));
}

/** @param {string} gameId @param {string} name @returns {Promise<JoinedSeat>} */
export function joinGame(gameId, name) {
  const key = newKey();
  return withRetries(() =>
    call("POST", `${games(gameId)}/players`, { body: { name }, headers: { "Idempotency-Key": key } }),
  );
}

/**
 * A page of the lobby: the listed tables with open seats, newest first.
 * @param {string | null} after the `next` of the page before, or null for the first
 * @returns {Promise<LobbyPage>}
 */
export function getLobby(after = null) {
  const query = new URLSearchParams({ limit: "20" });
  if (after) query.set("after", after);
  return call("GET", `/lobby?${query}`);
}

/** The caller's view: a player's with a token, else the public one. @param {string} gameId @param {string | null} token @returns {Promise<GameView>} */
export function getGame(gameId, token) {
  return call("GET", games(gameId), { token });
}

/**
 * A view of the game as it was at `version` (docs/api.md "Replays"): `seat`'s
 * view (anyone's once the game is over), or without it the caller's own (the
 * public view without a token, every hand with the admin's).
 * @param {string} gameId
 * @param {number} version
 * @param {number | null} seat
 * @param {string | null} token
 * @returns {Promise<GameView>}
 */
export function getReplay(gameId, version, seat, token) {
  const query = new URLSearchParams({ version: String(version) });
  if (seat !== null) query.set("seat", String(seat));
  return call("GET", `${games(gameId)}/replay?${query}`, { token });
}

/**
 * A page of the game's events after `after`, as the caller may see them.
 * @param {string} gameId
 * @param {number} after
 * @param {string | null} token
 * @returns {Promise<EventsPage>}
 */
export function getEvents(gameId, after, token) {
  return call("GET", `${games(gameId)}/events?after=${after}`, { token });
}

/**
 * One request of actions (applied all or nothing), decided on `version`.
 * @param {string} gameId
 * @param {string} token
 * @param {Action[]} actions
 * @param {number} version
 * @returns {Promise<GameView>}
 */
export function act(gameId, token, actions, version) {
  const key = newKey();
  const body = actions.length === 1 ? actions[0] : actions;
  return withRetries(() =>
    call("POST", `${games(gameId)}/actions`, {
      token,
      body,
      headers: { "Idempotency-Key": key, "If-Match": `"${version}"` },
    }),
  );
}

/**
 * Leave the seat for good (docs/api.md "Leaving and turn clocks"): `resign`
 * concedes the game, else the game's rule `abandon` says what becomes of the
 * seat. Sent with an Idempotency-Key like an action, but without If-Match: a
 * player who chose to leave leaves whatever the table did meanwhile.
 * @param {string} gameId
 * @param {string} token
 * @param {boolean} resign
 * @returns {Promise<GameView>}
 */
export function leave(gameId, token, resign) {
  const key = newKey();
  /** @type {Leave} */
  const body = { resign };
  return withRetries(() =>
    call("POST", `${games(gameId)}/leave`, { token, body, headers: { "Idempotency-Key": key } }),
  );
}

/** @param {string} gameId @param {string} token @returns {Promise<StreamTicket>} */
export function streamTicket(gameId, token) {
  return call("POST", `${games(gameId)}/stream-tickets`, { token });
}

/** @param {string} gameId @returns {string} */
export function auditPath(gameId) {
  return `${games(gameId)}/audit`;
}

/** The audit export (public once the game is finished). @param {string} gameId @returns {Promise<AuditExport>} */
export function getAudit(gameId) {
  return call("GET", auditPath(gameId));
}

/** The OpenAPI document this server serves (its caps included). @returns {Promise<any>} */
export function getDocument() {
  return call("GET", "/schema/openapi.json");
}

/**
 * A stream of the game's events after `after`, with the caller's views.
 * @param {string} gameId
 * @param {string | null} ticket
 * @param {number} after
 */
export function streamPath(gameId, ticket, after) {
  const query = new URLSearchParams({ after: String(after), view: "true" });
  if (ticket) query.set("ticket", ticket);
  return `${games(gameId)}/stream?${query}`;
}
