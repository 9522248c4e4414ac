// Messages to the player: every problem the service answers is shown with its
// title and detail (docs/api.md: "show detail to people"), in an alert region
// a screen reader announces.

import { Problem } from "./api.js";
import { h, replace } from "./dom.js";

function region() {
  const found = document.getElementById("notice");
  if (!(found instanceof HTMLElement)) throw new Error("the page has no #notice");
  return found;
}

/**
 * Show what went wrong: a Problem's title, detail and the fields it names, or
 * any other error as a fault of the page.
 * @param {unknown} error
 */
export function showProblem(error) {
  const notice = region();
  notice.hidden = false;
  notice.dataset.kind = "problem";
  if (error instanceof Problem) {
    notice.dataset.code = error.code;
    const fields = error.errors
      .map((entry) => (entry.key === undefined ? null : `${String(entry.key)}: ${String(entry.msg ?? "")}`))
      .filter((line) => line !== null);
    replace(
      notice,
      h("strong", { class: "title" }, error.title),
      " ",
      h("span", { class: "detail" }, error.detail),
      fields.length ? h("ul", {}, fields.map((line) => h("li", {}, line))) : null,
      closeButton(),
    );
    return;
  }
  notice.dataset.code = "page";
  replace(notice, h("strong", { class: "title" }, "Something went wrong"), " ", h("span", { class: "detail" }, String(error)), closeButton());
}

/** A note that is not a problem (the game moved on, a link was copied). @param {string} text */
export function showNote(text) {
  const notice = region();
  notice.hidden = false;
  notice.dataset.kind = "note";
  notice.dataset.code = "";
  replace(notice, h("span", { class: "detail" }, text), closeButton());
}

export function clearNotice() {
  const notice = region();
  notice.hidden = true;
  notice.dataset.code = "";
  replace(notice);
}

function closeButton() {
  return h("button", { type: "button", class: "small close", "aria-label": "Dismiss the message", onclick: clearNotice }, "✕");
}
