// Building the page: one small element helper, and keeping the keyboard focus
// across a re-render (the table is drawn again from each new view).

/** @typedef {string | number | boolean | null | undefined | ((event: Event) => void)} AttributeValue */
/** @typedef {Node | string | null | undefined | false} Child */

/**
 * An element with attributes and children. `on…` attributes are listeners,
 * `true` an empty attribute, `false`, null and undefined none at all.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      element.append(child);
    }
  }
  return element;
}

/**
 * Replace `root`'s content with `content`, keeping the focus on the element with
 * the same `data-focus` key if there is one (a keyboard user keeps their place).
 * @param {HTMLElement} root
 * @param {...(Child | Child[])} content
 * @returns {boolean} whether the focus was inside `root` and is now lost
 */
export function replace(root, ...content) {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && root.contains(active);
  const key = inside ? active.dataset.focus : undefined;
  root.replaceChildren(...content.flat().filter((child) => child !== null && child !== undefined && child !== false));
  if (key) {
    const again = root.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement) {
      again.focus();
      return document.activeElement !== again;
    }
  }
  return inside;
}

/**
 * The input element named `name` inside `form`.
 * @param {HTMLFormElement} form
 * @param {string} name
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
export function field(form, name) {
  const found = form.elements.namedItem(name);
  if (found instanceof HTMLInputElement || found instanceof HTMLSelectElement) return found;
  throw new Error(`no field ${name}`);
}
