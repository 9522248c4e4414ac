// The lobby: a form for a new table (you, the other seats as bots or open
// seats for friends, the variant and its house rules), the open tables the
// server lists (GET /lobby: join one with a click) and the tables this
// browser holds a seat at.

import { createGame, getDocument, getLobby, joinGame } from "./api.js";
import { h, field, replace } from "./dom.js";
import { botNames, help, levelHelp, seatRange, title, variantRules } from "./rules.js";
import { allSeats, forgetSeat, keepSeat, seatOf } from "./seats.js";
import { showProblem } from "./notice.js";

/** @typedef {import("./rules.js").Option} Option */
/** @typedef {import("./rules.js").VariantRules} VariantRules */
/** @typedef {import("./types").CreateGame} CreateGame */
/** @typedef {import("./types").LobbyGame} LobbyGame */

const OPEN = "open";
/** The level a bot seat starts at: the server's own default (`takeover_bot`). */
const DEFAULT_LEVEL = "basic";

/**
 * What a seat's choice means: its bot's level, or an open seat.
 * @param {string} choice
 */
function seatHint(choice) {
  return choice === OPEN ? "A friend takes this seat by the table's link." : levelHelp(choice);
}

/**
 * @param {HTMLElement} root
 */
export async function showLobby(root) {
  document.title = "Rummy: new table";
  replace(root, h("p", { class: "loading" }, "Loading the rules this server offers…"));
  /** @type {any} */
  let documentBody;
  try {
    documentBody = await getDocument();
  } catch (error) {
    replace(root);
    showProblem(error);
    return;
  }
  const variants = variantRules(documentBody);
  const bots = botNames(documentBody);
  const seats = seatRange(documentBody);
  replace(root, newTableForm(variants, bots, seats), openTables(), yourTables());
  const name = root.querySelector("input[name=name]");
  if (name instanceof HTMLInputElement) name.focus();
}

/**
 * @param {VariantRules[]} variants
 * @param {string[]} bots
 * @param {{minimum: number, maximum: number}} seats
 */
function newTableForm(variants, bots, seats) {
  const about = h("p", { class: "hint", id: "variant-about" });
  const others = h("div", { class: "others" });
  const rules = h("div", { class: "rules-fields" });
  const variantSelect = h(
    "select",
    { name: "variant", id: "variant", "aria-describedby": "variant-about" },
    variants.map((entry) => h("option", { value: entry.variant }, title(entry.variant))),
  );
  const seatSelect = h(
    "select",
    { name: "seats", id: "seats" },
    Array.from({ length: seats.maximum - seats.minimum + 1 }, (_, index) => {
      const count = seats.minimum + index;
      return h("option", { value: count }, `${count} players`);
    }),
  );
  const dealer = h("select", { name: "dealer", id: "dealer" });
  const chosen = () => variants.find((entry) => entry.variant === variantSelect.value) ?? variants[0];
  const drawOthers = () => {
    const count = Number(seatSelect.value);
    const kept = new Map(
      [...others.querySelectorAll("select")].map((select) => [select.name, select.value]),
    );
    replace(
      others,
      Array.from({ length: count - 1 }, (_, index) => {
        const name = `seat-${index + 1}`;
        const hint = h("small", { class: "hint", id: `${name}-hint` });
        const select = h(
          "select",
          { name, id: name, "aria-describedby": `${name}-hint` },
          bots.map((bot) => h("option", { value: bot }, `Computer (${bot})`)),
          h("option", { value: OPEN }, "Open seat: a friend joins by link"),
        );
        select.value = kept.get(name) ?? (bots.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : bots[0]) ?? OPEN;
        const explain = () => {
          replace(hint, seatHint(select.value));
        };
        select.addEventListener("change", explain);
        explain();
        return h("div", { class: "row", "data-seat": index + 1 }, h("label", { for: name }, `Seat ${index + 2}`), select, hint);
      }),
    );
    const keptDealer = dealer.value;
    replace(
      dealer,
      h("option", { value: "" }, "the shuffle decides"),
      Array.from({ length: count }, (_, seat) => h("option", { value: seat }, seat === 0 ? "you (seat 1)" : `seat ${seat + 1}`)),
    );
    dealer.value = Number(keptDealer) < count ? keptDealer : "";
  };
  const drawRules = () => {
    const variant = chosen();
    replace(about, prose(variant?.description ?? ""));
    replace(rules, (variant?.options ?? []).map(ruleField));
  };
  variantSelect.addEventListener("change", drawRules);
  seatSelect.addEventListener("change", drawOthers);
  drawOthers();
  drawRules();

  const submit = h("button", { type: "submit", class: "primary" }, "Create table");
  const form = h(
    "form",
    { class: "panel new-table", "aria-labelledby": "new-table-title", novalidate: true },
    h("h2", { id: "new-table-title" }, "New table"),
    h(
      "div",
      { class: "row" },
      h("label", { for: "your-name" }, "Your name"),
      h("input", { name: "name", id: "your-name", required: true, maxlength: 64, autocomplete: "nickname" }),
    ),
    h("div", { class: "row" }, h("label", { for: "variant" }, "Game"), variantSelect),
    about,
    h("div", { class: "row" }, h("label", { for: "seats" }, "Players"), seatSelect),
    others,
    h("div", { class: "row" }, h("label", { for: "dealer" }, "First dealer"), dealer, h("small", { class: "hint" }, "The player after the dealer plays first.")),
    h(
      "div",
      { class: "row" },
      h("label", { for: "listed" }, "List in the lobby"),
      h("input", { type: "checkbox", name: "listed", id: "listed", checked: true, "aria-describedby": "listed-hint" }),
      h("small", { class: "hint", id: "listed-hint" }, "List this table's open seats for anyone to join (else only its link lets players in)."),
    ),
    h("details", { class: "house-rules" }, h("summary", {}, "House rules"), h("p", { class: "hint" }, "Left at “default”, an option takes the variant's own value (docs/rules.md)."), rules),
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const variant = chosen();
    if (!variant) return;
    const body = tableBody(form, variant, Number(seatSelect.value));
    submit.disabled = true;
    try {
      const created = await createGame(body);
      const mine = created.players.find((player) => player.seat === 0) ?? created.players[0];
      if (mine) keepSeat({ gameId: created.game_id, seat: mine.seat, name: mine.name, token: mine.token });
      location.assign(`/play?game=${encodeURIComponent(created.game_id)}`);
    } catch (error) {
      showProblem(error);
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * The body of `POST /games` the form describes: you in seat 0, then the bots,
 * then the open seats (named players take the first seats).
 * @param {HTMLFormElement} form
 * @param {VariantRules} variant
 * @param {number} count
 * @returns {CreateGame}
 */
function tableBody(form, variant, count) {
  const others = Array.from({ length: count - 1 }, (_, index) => field(form, `seat-${index + 1}`).value);
  const bots = others.filter((choice) => choice !== OPEN);
  /** @type {Record<string, unknown>} */
  const rules = { variant: variant.variant };
  for (const option of variant.options) {
    if (option.kind === "fixed") continue;
    const raw = field(form, `rule-${option.name}`).value.trim();
    if (raw === "") continue;
    rules[option.name] =
      option.nullable && raw.toLowerCase() === "none"
        ? null
        : option.kind === "integer"
          ? Number(raw)
          : option.kind === "boolean"
            ? raw === "true"
            : raw;
  }
  /** @type {CreateGame} */
  const body = {
    players: [
      { name: field(form, "name").value.trim() },
      ...bots.map((bot, index) => ({ name: `${title(bot)} bot ${index + 2}`, bot: /** @type {any} */ (bot) })),
    ],
    rules: /** @type {any} */ (rules),
  };
  if (bots.length < others.length) body.seats = count;
  const listed = form.elements.namedItem("listed");
  if (listed instanceof HTMLInputElement && !listed.checked) body.unlisted = true;
  const dealer = field(form, "dealer").value;
  if (dealer !== "") body.dealer = Number(dealer);
  return body;
}

/**
 * The document's descriptions write names as `code`: shown as such.
 * @param {string} text
 */
function prose(text) {
  return text.split("`").map((part, index) => (index % 2 ? h("code", {}, part) : part));
}

/** @param {unknown} value */
function shown(value) {
  if (value === null) return "none";
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

/** One house rule's field. @param {Option} option */
function ruleField(option) {
  const id = `rule-${option.name}`;
  const meaning = help(option);
  const label = h("label", { for: id, title: meaning || null }, title(option.name));
  const hint = meaning ? h("small", { class: "hint", id: `${id}-hint` }, prose(meaning)) : null;
  const described = hint ? `${id}-hint` : null;
  const fallback = option.fallback === undefined ? "default" : `default (${shown(option.fallback)})`;
  if (option.kind === "fixed") {
    return h(
      "div",
      { class: "row fixed", "data-option": option.name },
      h("span", { class: "label", title: meaning || null }, title(option.name)),
      h("span", {}, shown(option.fixed)),
      h("small", { class: "hint" }, "fixed in this variant", meaning ? [". ", ...prose(meaning)] : null),
    );
  }
  /** @type {HTMLElement} */
  let input;
  if (option.kind === "choice" || option.kind === "boolean") {
    const values = option.kind === "boolean" ? ["true", "false"] : option.values;
    input = h(
      "select",
      { id, name: id, "aria-describedby": described },
      h("option", { value: "" }, fallback),
      values.map((value) => h("option", { value }, option.kind === "boolean" ? shown(value === "true") : value.replaceAll("_", " "))),
    );
  } else {
    input = h("input", {
      id,
      name: id,
      // A number, or "none" where null switches the option off.
      type: option.kind === "integer" && !option.nullable ? "number" : "text",
      inputmode: option.kind === "integer" && !option.nullable ? "numeric" : null,
      min: option.minimum,
      max: option.maximum,
      step: option.kind === "integer" ? 1 : null,
      placeholder: option.nullable ? `${fallback}, or none` : fallback,
      "aria-describedby": described,
    });
  }
  return h("div", { class: "row", "data-option": option.name }, label, input, hint);
}

function yourTables() {
  const seats = allSeats();
  if (seats.length === 0) return null;
  const list = h("ul", { class: "tables" });
  for (const seat of seats) {
    const item = h(
      "li",
      {},
      h("a", { href: `/play?game=${encodeURIComponent(seat.gameId)}` }, `${seat.name}, seat ${seat.seat + 1}`),
      ` · since ${new Date(seat.since).toLocaleString()} `,
      h(
        "button",
        {
          type: "button",
          class: "small",
          onclick: () => {
            forgetSeat(seat.gameId);
            item.remove();
          },
        },
        "Forget",
      ),
    );
    list.append(item);
  }
  return h(
    "section",
    { class: "panel", "aria-labelledby": "your-tables" },
    h("h2", { id: "your-tables" }, "Your tables"),
    h("p", { class: "hint" }, "Seats this browser holds. Forgetting one throws its token away: nobody can play that seat again."),
    list,
  );
}

/**
 * The open tables the server lists, newest first, a page at a time: each
 * joined with a click, by the name given above (or, without one, on the
 * table's own page, which asks for it).
 */
function openTables() {
  const list = h("ul", { class: "tables open-tables" });
  const more = h("button", { type: "button", class: "small", hidden: true }, "More tables");
  const refresh = h("button", { type: "button", class: "small" }, "Refresh");
  const empty = h("p", { class: "hint", hidden: true }, "No table is waiting for players. Create one above.");
  /** @type {string | null} */
  let next = null;
  /** @param {boolean} first */
  const load = async (first) => {
    section.setAttribute("aria-busy", "true");
    try {
      const page = await getLobby(first ? null : next);
      if (first) replace(list);
      for (const game of page.games) list.append(openTable(game));
      next = page.next;
      more.hidden = next === null;
      empty.hidden = list.childElementCount > 0;
    } catch (error) {
      showProblem(error);
    } finally {
      section.setAttribute("aria-busy", "false");
    }
  };
  more.addEventListener("click", () => load(false));
  refresh.addEventListener("click", () => load(true));
  const section = h(
    "section",
    { class: "panel", "aria-labelledby": "open-tables", "aria-busy": "true" },
    h("h2", { id: "open-tables" }, "Open tables"),
    h("p", { class: "hint" }, "Tables waiting for players. Give your name above, then join one."),
    empty,
    list,
    h("div", { class: "row" }, more, refresh),
  );
  load(true);
  return section;
}

/** One open table of the lobby. @param {LobbyGame} game */
function openTable(game) {
  const seated = game.players.flatMap((player) => (player ? [player.name] : []));
  const what = `${title(game.variant)}, ${game.seats} players`;
  const page = `/play?game=${encodeURIComponent(game.game_id)}`;
  const mine = seatOf(game.game_id);
  const summary = [
    h("strong", {}, what),
    ` · ${game.open_seats} open ${game.open_seats === 1 ? "seat" : "seats"}`,
    seated.length ? ` · with ${seated.join(", ")}` : "",
    ` · since ${new Date(game.created_at).toLocaleTimeString()} `,
  ];
  if (mine) {
    // A seat this browser holds already: back to it, never a second seat.
    return h("li", { "data-game": game.game_id }, summary, h("a", { href: page }, `your seat, ${mine.name}`));
  }
  const join = h("button", { type: "button", class: "small primary", "aria-label": `Join ${what}${seated.length ? ` with ${seated.join(", ")}` : ""}` }, "Join");
  join.addEventListener("click", async () => {
    const input = document.getElementById("your-name");
    const name = input instanceof HTMLInputElement ? input.value.trim() : "";
    if (!name) {
      location.assign(page);
      return;
    }
    join.disabled = true;
    try {
      const joined = await joinGame(game.game_id, name);
      keepSeat({ gameId: game.game_id, seat: joined.seat, name, token: joined.token });
      location.assign(page);
    } catch (error) {
      showProblem(error);
      join.disabled = false;
    }
  });
  return h("li", { "data-game": game.game_id }, summary, join);
}
