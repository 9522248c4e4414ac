// A Gin Rummy hand arranged for the least deadwood (docs/rules.md "Gin Rummy":
// sets of 3-4 of a rank, runs of 3+ in a suit, the ace low only; A counts 1,
// J Q K 10). The page shows a knock's arrangement before it is sent and sends
// that arrangement as the knock's `melds`, so the hand the server scores is the
// one the player saw; the server still judges it (an invalid meld or too much
// deadwood is refused in its words), and its own count is `legal.deadwood`.

import { parts } from "./cards.js";

const ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/**
 * @typedef {object} Arrangement
 * @property {string[][]} melds
 * @property {string[]} deadwood the cards in no meld
 * @property {number} count their value
 */

/** What a card counts in deadwood. @param {string} code */
export function deadwoodValue(code) {
  const at = ORDER.indexOf(parts(code).rank);
  return at < 0 ? 10 : Math.min(at + 1, 10);
}

/**
 * Every set and run `cards` can make (a four-card set also as each of its threes).
 * @param {readonly string[]} cards
 * @returns {string[][]}
 */
function candidates(cards) {
  /** @type {string[][]} */
  const found = [];
  /** @type {Map<string, string[]>} */
  const byRank = new Map();
  /** @type {Map<string, string[]>} */
  const bySuit = new Map();
  for (const code of cards) {
    const { rank, suit } = parts(code);
    byRank.set(rank, [...(byRank.get(rank) ?? []), code]);
    bySuit.set(suit, [...(bySuit.get(suit) ?? []), code]);
  }
  for (const same of byRank.values()) {
    if (same.length >= 3) found.push(same);
    if (same.length === 4) for (let left = 0; left < 4; left += 1) found.push(same.filter((_, index) => index !== left));
  }
  for (const suited of bySuit.values()) {
    const sorted = [...suited].sort((a, b) => ORDER.indexOf(parts(a).rank) - ORDER.indexOf(parts(b).rank));
    for (let start = 0; start < sorted.length; start += 1) {
      const run = [sorted[start] ?? ""];
      for (let next = start + 1; next < sorted.length; next += 1) {
        const gap = ORDER.indexOf(parts(sorted[next] ?? "").rank) - ORDER.indexOf(parts(run[run.length - 1] ?? "").rank);
        if (gap !== 1) break;
        run.push(sorted[next] ?? "");
        if (run.length >= 3) found.push([...run]);
      }
    }
  }
  return found;
}

/**
 * The arrangement of `cards` with the least deadwood (an exact search: a hand of
 * ten or eleven makes few melds).
 * @param {readonly string[]} cards
 * @returns {Arrangement}
 */
export function arrange(cards) {
  const melds = candidates(cards);
  /** @type {Arrangement} */
  let best = { melds: [], deadwood: [...cards], count: cards.reduce((sum, code) => sum + deadwoodValue(code), 0) };
  /**
   * @param {number} from the first candidate still to consider
   * @param {Set<string>} used
   * @param {string[][]} chosen
   */
  const search = (from, used, chosen) => {
    const deadwood = cards.filter((code) => !used.has(code));
    const count = deadwood.reduce((sum, code) => sum + deadwoodValue(code), 0);
    if (count < best.count) best = { melds: chosen.map((meld) => [...meld]), deadwood, count };
    for (let index = from; index < melds.length; index += 1) {
      const meld = melds[index] ?? [];
      if (meld.some((code) => used.has(code))) continue;
      for (const code of meld) used.add(code);
      chosen.push(meld);
      search(index + 1, used, chosen);
      chosen.pop();
      for (const code of meld) used.delete(code);
    }
  };
  search(0, new Set(), []);
  return best;
}
