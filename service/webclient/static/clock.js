// The server's clock as far as the page can tell, for the turn countdown.
//
// A view's `turn_deadline` is a time on the server's clock; the browser's own
// clock may be off by seconds, or by hours on a machine set by hand. So the
// page keeps what it has observed of the offset (server time − local time) as
// an interval, narrowed by each observation:
//
// - Every answer's `Date` header (api.js). It has whole seconds, and the
//   server refreshes it once a second (uvicorn does), so at the moment of
//   answering the server's time lay in [Date, Date + 2 s]; that moment lay in
//   [sent, received] by the local clock: offset ∈ [Date − received,
//   Date + 2 s − sent].
// - Every event's `at` (game.js): the server stored the event before the page
//   received it, so offset ≥ at − received; to the millisecond for an event
//   the stream delivers as it happens.
//
// The correction is the offset inside that interval nearest 0: none while
// the two clocks agree as closely as can be measured, else the smallest
// correction the observations demand (a clock an hour off is corrected to
// within the Date header's two seconds, or better once events arrive). If the
// observations stop agreeing (the local clock was set meanwhile), the page
// starts again from the newest one.

/** How far a `Date` header may be behind the moment of answering, in ms. */
const DATE_SLACK_MS = 2000;

/** Observed bounds of server time − local time, in ms. */
let lowest = -Infinity;
let highest = Infinity;

/**
 * Narrow the interval to [low, high], or start again from it if the two are disjoint.
 * @param {number} low
 * @param {number} high
 */
function observe(low, high) {
  if (low > highest || high < lowest) {
    lowest = low;
    highest = high;
    return;
  }
  lowest = Math.max(lowest, low);
  highest = Math.min(highest, high);
}

/**
 * An answer's `Date` header, for a request sent and answered at these local times.
 * @param {string | null} header
 * @param {number} sent
 * @param {number} received
 */
export function observeDate(header, sent, received) {
  const date = header ? Date.parse(header) : NaN;
  if (!Number.isFinite(date)) return;
  observe(date - received, date + DATE_SLACK_MS - sent);
}

/**
 * An event stored at `at` (the server's time), received at local time `received`.
 * @param {string} at
 * @param {number} received
 */
export function observeEvent(at, received) {
  const stored = Date.parse(at);
  if (!Number.isFinite(stored)) return;
  observe(stored - received, Infinity);
}

/** The correction to add to the local clock: the observed offset nearest 0. */
export function offset() {
  return Math.min(Math.max(0, lowest), highest);
}

/**
 * Whole seconds left before `deadline` by the server's clock, never below 0.
 * @param {string} deadline RFC 3339
 */
export function secondsLeft(deadline) {
  const due = Date.parse(deadline);
  if (!Number.isFinite(due)) return 0;
  return Math.max(0, Math.ceil((due - (Date.now() + offset())) / 1000));
}

/** "42 s", or "2:05" from a minute on. @param {number} seconds */
export function spell(seconds) {
  if (seconds < 60) return `${seconds} s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}
