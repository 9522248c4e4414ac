// Checking a finished game's audit export in the browser, by docs/audit.md:
// the hash chain from the game's genesis to its head, the revealed seed
// against the commitment the game showed from its creation, and the result
// against what the page saw. Replaying the rules is `rummy verify`'s job.

import { getAudit } from "./api.js";
import { sha256Hex } from "./sha256.js";

/** @typedef {import("./types").AuditExport} AuditExport */
/** @typedef {import("./types").GameView} GameView */

/**
 * @typedef {object} Check
 * @property {string} name
 * @property {boolean} ok
 * @property {string} detail
 */

/**
 * Canonical JSON (docs/audit.md, "The canonical form"): members sorted by name,
 * no whitespace, strings as JSON.stringify writes them (it escapes exactly the
 * quote, the backslash and the control characters, in lower-case hex).
 * @param {unknown} value
 * @returns {string}
 */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const object = /** @type {Record<string, unknown>} */ (value);
    return `{${Object.keys(object)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonical(object[name])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * @param {AuditExport} audit
 * @returns {Check}
 */
function chainCheck(audit) {
  const genesis = sha256Hex(`${audit.format}:${audit.game_id}`);
  if (genesis !== audit.chain.genesis) {
    return { name: "Hash chain", ok: false, detail: "The genesis hash is not this game's." };
  }
  let previous = genesis;
  for (const event of audit.events) {
    const { hash, ...content } = event;
    if (event.previous_hash !== previous || sha256Hex(canonical(content)) !== hash) {
      return { name: "Hash chain", ok: false, detail: `Event ${event.version} does not hash to its place in the chain.` };
    }
    previous = hash;
  }
  if (previous !== audit.chain.head || audit.events.length !== audit.chain.length) {
    return { name: "Hash chain", ok: false, detail: "The chain's head or length does not match its events." };
  }
  return {
    name: "Hash chain",
    ok: true,
    detail: `${audit.events.length} events, each hashed onto the one before, from the game's genesis to the head ${previous.slice(0, 12)}…`,
  };
}

/**
 * @param {AuditExport} audit
 * @returns {Check}
 */
function seedCheck(audit) {
  if (audit.seed === null || audit.seed === undefined) {
    return { name: "Seed", ok: false, detail: "The export does not reveal the seed." };
  }
  const ok = sha256Hex(audit.seed) === audit.seed_commitment;
  return {
    name: "Seed",
    ok,
    detail: ok
      ? `The revealed seed hashes to the commitment ${audit.seed_commitment.slice(0, 12)}… shown since the table was created (deal: ${audit.deal}).`
      : "The revealed seed does not match the commitment the game showed.",
  };
}

/**
 * @param {AuditExport} audit
 * @param {GameView} view
 * @returns {Check}
 */
function resultCheck(audit, view) {
  const scores = view.players.map((player) => player.score);
  const ok =
    audit.status === "finished" &&
    audit.winner === view.winner &&
    audit.totals.length === scores.length &&
    audit.totals.every((total, seat) => total === scores[seat]);
  return {
    name: "Result",
    ok,
    detail: ok
      ? `The export's winner and totals (${audit.totals.join(", ")}) are the ones this page shows.`
      : "The export's winner or totals differ from what this page shows.",
  };
}

/**
 * Fetch the export and check it.
 * @param {string} gameId
 * @param {GameView} view the finished game as the page shows it
 * @returns {Promise<Check[]>}
 */
export async function checkAudit(gameId, view) {
  const audit = await getAudit(gameId);
  return [chainCheck(audit), seedCheck(audit), resultCheck(audit, view)];
}
