// The canonical JSON both the audit chain's hashes and the rules digest are
// taken of, kept apart from audit.js so that it runs without the page's API.

/**
 * Canonical JSON (docs/audit.md, "The canonical form"): members sorted by name,
 * no whitespace, strings as JSON.stringify writes them (it escapes exactly the
 * quote, the backslash and the control characters, in lower-case hex, and
 * writes non-ASCII as itself, as Python's `ensure_ascii=False` does).
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
