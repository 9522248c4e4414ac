// The seats this browser holds: one player token per game, kept in
// localStorage so that a reload, a new tab or a restart of the browser finds
// the game again. A token is a secret (docs/api.md, "Tokens"): it is kept
// here and sent only in the Authorization header, never put in a URL.

const PREFIX = "rummy.seat.";

/**
 * @typedef {object} Seat
 * @property {string} gameId
 * @property {number} seat
 * @property {string} name
 * @property {string} token
 * @property {string} since ISO time it was taken
 */

/** @param {unknown} value @returns {value is Seat} */
function isSeat(value) {
  if (typeof value !== "object" || value === null) return false;
  const seat = /** @type {Record<string, unknown>} */ (value);
  return (
    typeof seat.gameId === "string" &&
    typeof seat.seat === "number" &&
    typeof seat.name === "string" &&
    typeof seat.token === "string" &&
    typeof seat.since === "string"
  );
}

/** @param {string} gameId @returns {Seat | null} */
export function seatOf(gameId) {
  try {
    const parsed = JSON.parse(localStorage.getItem(PREFIX + gameId) ?? "null");
    return isSeat(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** @param {Omit<Seat, "since">} seat */
export function keepSeat(seat) {
  localStorage.setItem(PREFIX + seat.gameId, JSON.stringify({ ...seat, since: new Date().toISOString() }));
}

/** @param {string} gameId */
export function forgetSeat(gameId) {
  localStorage.removeItem(PREFIX + gameId);
}

/** Every seat kept, the latest first. @returns {Seat[]} */
export function allSeats() {
  /** @type {Seat[]} */
  const found = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    if (key?.startsWith(PREFIX)) {
      const seat = seatOf(key.slice(PREFIX.length));
      if (seat) found.push(seat);
    }
  }
  return found.sort((a, b) => b.since.localeCompare(a.since));
}

/** The address of a game's page: the join link for its open seats. @param {string} gameId */
export function gameLink(gameId) {
  return `${location.origin}/play?game=${encodeURIComponent(gameId)}`;
}
