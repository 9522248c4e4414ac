// The house rules a new table may choose, read from the OpenAPI document the
// server serves: `Rules` is a oneOf with one schema per variant, each naming
// its options (an enum, a bounded integer, a yes/no, or a value the variant
// fixes) and its defaults, with this deployment's caps. So the form offers
// exactly what the server takes, and a variant or option added to the
// service appears here without a change to the page.

/**
 * @typedef {object} Option
 * @property {string} name the docs/rules.md name, as sent
 * @property {"choice" | "integer" | "boolean" | "text" | "fixed"} kind
 * @property {string[]} values the choices of a "choice"
 * @property {number | undefined} minimum
 * @property {number | undefined} maximum
 * @property {unknown} fallback the variant's default, when the document gives it
 * @property {unknown} fixed the value of a "fixed" option
 * @property {string} description
 * @property {boolean} [nullable] an integer that may also be sent as null ("none"), which switches it off
 */

/**
 * @typedef {object} VariantRules
 * @property {string} variant
 * @property {string} description
 * @property {Option[]} options
 */

/** @typedef {Record<string, any>} Schema */

/**
 * @param {Schema} document
 * @param {Schema} schema
 * @returns {Schema}
 */
function resolve(document, schema) {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  let found = document;
  for (const part of ref.replace(/^#\//, "").split("/")) found = found?.[part];
  return found ?? {};
}

/**
 * The non-null branch of `anyOf: [X, {type: null}]` (or the schema itself).
 * @param {Schema} document
 * @param {Schema} schema
 * @returns {Schema | null}
 */
function nonNull(document, schema) {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches)) return resolve(document, schema);
  const kept = branches.filter((branch) => branch.type !== "null");
  return kept.length === 1 ? resolve(document, kept[0]) : null;
}

/**
 * The integer options whose null is a value of their own, not "left out" (docs/rules.md):
 * Gin Rummy's `big_gin_bonus` null turns big gin off.
 */
const NULL_SWITCHES_OFF = new Set(["big_gin_bonus"]);

/**
 * @param {Schema} document
 * @param {string} name
 * @param {Schema} property
 * @returns {Option | null}
 */
function option(document, name, property) {
  const schema = nonNull(document, property);
  if (schema === null) return null;
  /** @type {Option} */
  const base = {
    name,
    kind: "text",
    values: [],
    minimum: undefined,
    maximum: undefined,
    fallback: property.default,
    fixed: undefined,
    description: String(property.description ?? schema.description ?? ""),
  };
  if ("const" in schema) return { ...base, kind: "fixed", fixed: schema.const };
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((/** @type {unknown} */ value) => value !== null).map(String);
    // The bot levels (`takeover_bot`) read weakest first, as the seats offer them.
    return { ...base, kind: "choice", values: schema.title === "BotName" ? byLevel(values) : values };
  }
  if (schema.type === "integer") {
    // Every option's null means "the default", but for these it is a value: the form takes "none".
    const nullable = NULL_SWITCHES_OFF.has(name);
    return { ...base, kind: "integer", minimum: schema.minimum, maximum: schema.maximum, ...(nullable ? { nullable } : {}) };
  }
  if (schema.type === "boolean") return { ...base, kind: "boolean" };
  if (schema.type === "string") return base;
  return null; // a shape this page does not know: the option keeps its default
}

/**
 * Each variant's options, in the document's order.
 * @param {Schema} document
 * @returns {VariantRules[]}
 */
export function variantRules(document) {
  const rules = document.components?.schemas?.Rules;
  const branches = Array.isArray(rules?.oneOf) ? rules.oneOf : rules ? [rules] : [];
  /** @type {VariantRules[]} */
  const found = [];
  for (const branch of branches) {
    const schema = resolve(document, branch);
    const properties = schema.properties ?? {};
    const tag = nonNull(document, properties.variant ?? {});
    const variant = tag?.const ?? properties.variant?.default;
    if (typeof variant !== "string") continue;
    const options = Object.entries(properties)
      .filter(([name]) => name !== "variant")
      .map(([name, property]) => option(document, name, property))
      .filter((/** @type {Option | null} */ entry) => entry !== null);
    found.push({ variant, description: String(schema.description ?? ""), options: /** @type {Option[]} */ (options) });
  }
  return found;
}

/**
 * The bot levels, weakest first, and how each plays, in a player's words
 * (docs/bots.md "Levels"). A level the server offers that is not here comes
 * last, without words.
 * @type {Record<string, string>}
 */
const LEVELS = {
  random: "Plays any legal move at random: a gentle table to learn the rules at.",
  basic: "Plays by rules of thumb: melds as soon as it can and throws its loose high cards.",
  strong: "Thinks ahead: tries its moves against many deals of the cards it cannot see.",
  expert: "The strongest: the same thinking as strong, with many more deals tried for each move.",
};

/**
 * `names` weakest first (the order of `LEVELS`), any other after them as given.
 * @param {string[]} names
 */
export function byLevel(names) {
  const order = Object.keys(LEVELS);
  const rank = (/** @type {string} */ name) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...names].sort((a, b) => rank(a) - rank(b));
}

/**
 * How a bot of level `name` plays ("" for a level this page does not know).
 * @param {string} name
 */
export function levelHelp(name) {
  return LEVELS[name] ?? "";
}

/**
 * The bot levels the server offers (`BotName`), weakest first.
 * @param {Schema} document
 * @returns {string[]}
 */
export function botNames(document) {
  const names = document.components?.schemas?.BotName?.enum;
  return Array.isArray(names) ? byLevel(names.map(String)) : ["basic"];
}

/**
 * How many seats a table may have (`CreateGame.seats`).
 * @param {Schema} document
 * @returns {{minimum: number, maximum: number}}
 */
export function seatRange(document) {
  const seats = nonNull(document, document.components?.schemas?.CreateGame?.properties?.seats ?? {});
  return { minimum: Number(seats?.minimum ?? 2), maximum: Number(seats?.maximum ?? 6) };
}

/** "hand_size" → "Hand size". @param {string} name */
export function title(name) {
  const words = name.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What each option means, after docs/rules.md, for the options the document
 * does not describe (its descriptions come first).
 * @type {Record<string, string>}
 */
const HELP = {
  aces: "Whether an ace may be high in a run: low only (A-2-3), high or low (Q-K-A too), or around the corner (K-A-2 too).",
  hand_size: "Cards dealt to each player. By default 10 for two players, 7 for three or four, 6 for five or six.",
  melds_per_turn: "How many new melds a player may lay in one turn: as many as they like, or one.",
  lay_off: "When a player may add cards to other players' melds: any time, or only once they have a meld of their own on the table.",
  going_out: "How the last card may go: by a meld, a lay-off or the discard, or only by the discard.",
  rummy_bonus: "What going out in one turn (rummy) adds to the points won: doubled, 10 more, or nothing.",
  recycles: "How many times in a hand the discard pile may become the stock when the stock runs out (0: the hand ends).",
  recycle_shuffle: "Whether the discard pile is shuffled when it becomes the stock, or just turned over.",
  exhausted: "What a hand that nobody went out of scores: nothing (void), or the hands are counted (score).",
  max_turns: "A safety cap on the turns of one hand: a hand that reaches it ends as if the stock had run out.",
  scoring: "Winner: who goes out scores the other hands and the highest total wins. Penalty: each player adds their own hand and the lowest total wins.",
  target: "The points that end the game: it ends when a hand leaves a player at or over them.",
  deals: "A fixed number of hands instead of a target: the game ends after that many, the best total wins.",
  packs: "How many 52-card packs are shuffled together.",
  jokers: "How many jokers the pack holds; jokers are wild.",
  wild_rank: "A rank whose four cards are wild besides the jokers (2 for deuces wild), or none.",
  min_natural: "The fewest cards of a meld that must stand for themselves, not for another card.",
  swap: "Whether a player may take a wild out of a meld by putting in the card it stands for.",
  swapped_wild: "What a wild taken by a swap may do: anything, or it must be melded or laid off in the same turn.",
  wild_penalty: "What a wild card left in a hand counts at the end of a hand.",
  ace_value: "What an ace left in a hand counts (by default 1 when aces are low, else 15).",
  knock_penalty: "What a knocker adds to the pot when another player's count is as low or lower (undercut).",
  knock_bonus: "What a knocker who wins alone with a count of 0 gets from each other player.",
  format: "How the game is scored and when it ends: one deal for points, a number of deals for chips, or a pool that eliminates players at 101 or 201 points.",
  first_drop: "What dropping out of a deal costs before the player's first draw.",
  middle_drop: "What dropping out of a deal costs after the player has drawn.",
  full_count: "The most a hand can count; also what a wrong declaration costs.",
  turn_seconds: "How long each player has for a turn; when it runs out the server's bot moves for them. None: no clock.",
  timeouts_before_takeover: "How many timeouts in a row hand a seat over as the rule for leaving says.",
  abandon: "What becomes of a seat whose player leaves or keeps timing out: the server's bot plays it on, or it forfeits.",
  knock_limit: "Gin Rummy: the most deadwood a player may knock with (0: gin only).",
  gin_bonus: "Gin Rummy: what going gin (no deadwood) adds to the opponent's deadwood.",
  big_gin_bonus: "Gin Rummy: what big gin (all eleven cards in melds, after the draw) adds; none turns big gin off.",
  undercut_bonus: "Gin Rummy: what a defender adds when its deadwood is as low as the knocker's or lower.",
  oklahoma: "Gin Rummy: the upcard sets each hand's knock limit (an ace: gin only), and a spade upcard doubles the hand.",
  game_bonus: "Gin Rummy: what the winner of the game adds to its total.",
  box_bonus: "Gin Rummy: what each player adds at the game's end for every hand it won.",
  shutout: "Gin Rummy: whether a winner whose opponent won no hand has its final total doubled.",
};

/**
 * What an option means, in words for the form: the document's description, else
 * the page's own from docs/rules.md ("" for an option neither knows).
 * @param {Option} option
 */
export function help(option) {
  const described = option.description.startsWith("Fixed at ") ? "" : option.description;
  return described || HELP[option.name] || "";
}
