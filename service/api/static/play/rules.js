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
    return { ...base, kind: "choice", values: schema.enum.filter((/** @type {unknown} */ value) => value !== null).map(String) };
  }
  if (schema.type === "integer") return { ...base, kind: "integer", minimum: schema.minimum, maximum: schema.maximum };
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
 * The bot strategies the server offers (`BotName`).
 * @param {Schema} document
 * @returns {string[]}
 */
export function botNames(document) {
  const names = document.components?.schemas?.BotName?.enum;
  return Array.isArray(names) ? names.map(String) : ["basic"];
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
