// Checking a finished game's audit export in the browser, by docs/audit.md:
// the hash chain from the game's genesis to its head, the revealed seed
// against the commitment the game showed from its creation (for a game with
// a seed per hand, with its rules digest and hand seeds), and the result
// against what the page saw. Replaying the rules is `rummy verify`'s job.

import { getAudit } from "./api.js";
import { canonical } from "./canonical.js";
import { chainCommitment, handSeeds, LONGEST_CHAIN, rulesDigest } from "./handchain.js";
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
 * The revealed seed against the commitment: by the scheme `game_created` names
 * (docs/fairness.md), a seed per hand for new games, one seed for old ones.
 * @param {AuditExport} audit
 * @returns {Check}
 */
export function seedCheck(audit) {
  if (audit.seed === null || audit.seed === undefined) {
    return { name: "Seed", ok: false, detail: "The export does not reveal the seed." };
  }
  const created = audit.events[0];
  if (created?.type === "game_created" && created.data["seed_scheme"] === "hand_chain") {
    return handChainCheck(audit, audit.seed, created.data);
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
 * A seed per hand (docs/fairness.md "A seed per hand"): the rules digest of the
 * stored rules, the chain drawn from the revealed seed, its commitment, and each
 * hand seed the game revealed as its hand ended.
 * @param {AuditExport} audit
 * @param {string} seed
 * @param {Record<string, unknown>} created `game_created`'s data
 * @returns {Check}
 */
function handChainCheck(audit, seed, created) {
  /** @param {string} detail */
  const failed = (detail) => ({ name: "Seed", ok: false, detail });
  const rules = created["rules"];
  const digest = rulesDigest(rules);
  if (digest !== created["rules_digest"]) {
    return failed("The rules digest is not the SHA-256 of the rules the game was created with.");
  }
  const stored = /** @type {Record<string, unknown>} */ (rules ?? {});
  const cap = stored["max_hands"];
  const length = typeof cap === "number" && cap >= 1 ? cap : LONGEST_CHAIN;
  const seeds = handSeeds(seed, length);
  const commitment = chainCommitment(seeds[0] ?? "", digest);
  if (commitment !== audit.seed_commitment || commitment !== created["seed_commitment"]) {
    return failed("The revealed seed and the rules do not give the commitment the game showed.");
  }
  const ended = audit.events.filter((event) => event.type === "hand_ended");
  for (const event of ended) {
    const hand = event.data["hand_number"];
    const expected = typeof hand === "number" ? seeds[hand - 1] : undefined;
    if (event.data["hand_seed"] !== expected) {
      return failed(`Hand ${String(hand)}'s revealed seed is not its link of the chain drawn from the game's seed.`);
    }
  }
  return {
    name: "Seed",
    ok: true,
    detail:
      `The rules hash to the digest ${digest.slice(0, 12)}… and the revealed seed's chain of ${length} hand seeds, ` +
      `with that digest, to the commitment ${commitment.slice(0, 12)}… shown since the table was created; ` +
      `the seeds revealed as the ${ended.length} hands ended are the chain's (deal: ${audit.deal}).`,
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
    audit.status === view.status &&
    (audit.winner ?? null) === (view.winner ?? null) &&
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
