// A seed per hand (`seed_scheme: hand_chain`, docs/fairness.md "A seed per
// hand"), recomputed in the browser from the seed the finished game's audit
// export reveals: the rules digest, the chain of hand seeds and the
// commitment, byte for byte as service/domain/hand_chain.py makes them.

import { canonical } from "./canonical.js";
import { hmacSha256, sha256Bytes, sha256Hex, toHex } from "./sha256.js";

const CHAIN_LABEL = "straight-rummy/hand-chain/v1";
const COMMITMENT_PREFIX = "straight-rummy/commitment/v2";
/** The chain of a game whose rules name no `max_hands`: that option's upper bound. */
export const LONGEST_CHAIN = 500;

const utf8 = new TextEncoder();

/**
 * The rules digest: the SHA-256 of the stored rules, keys sorted at every depth,
 * no whitespace, non-ASCII as itself (JSON.stringify never escapes it).
 * @param {unknown} rules
 */
export function rulesDigest(rules) {
  return sha256Hex(canonical(rules));
}

/**
 * The seeds of hands 1 to `length`, as lower-case hex: the last is the HMAC of
 * the label under the game's seed, each earlier one the SHA-256 of the next.
 * @param {string} seed
 * @param {number} length
 * @returns {string[]}
 */
export function handSeeds(seed, length) {
  let link = hmacSha256(utf8.encode(seed), utf8.encode(CHAIN_LABEL));
  const chain = [toHex(link)];
  for (let count = 1; count < length; count += 1) {
    link = sha256Bytes(link);
    chain.push(toHex(link));
  }
  return chain.reverse();
}

/**
 * The commitment of a chain whose hand 1 has `firstSeed`, under a rules digest.
 * @param {string} firstSeed hand 1's seed (hex)
 * @param {string} digest the rules digest (hex)
 */
export function chainCommitment(firstSeed, digest) {
  const head = sha256Bytes(fromHex(firstSeed));
  const prefix = utf8.encode(COMMITMENT_PREFIX);
  const material = new Uint8Array(prefix.length + 64);
  material.set(prefix);
  material.set(head, prefix.length);
  material.set(fromHex(digest), prefix.length + 32);
  return toHex(sha256Bytes(material));
}

/**
 * Hex to bytes; a string that is not 64 hex digits gives no bytes (so no match).
 * @param {string} hex
 */
function fromHex(hex) {
  if (!/^[0-9a-f]{64}$/.test(hex)) return new Uint8Array(0);
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}
