// A whole game played with a TypeScript client generated from the committed
// document: openapi-typescript's types (generated beside this file as
// schema.ts, at test time, never committed) and openapi-fetch. It must pass
// `tsc --strict` (tests/clients/test_typescript_client.py checks it, then runs it).
//
//   tsx play.ts <base URL> <new game JSON>
//
// Prints what it saw as one JSON object, for the test to check.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type View = Schemas["GameView"];
type Legal = Schemas["LegalMoves"];
type Action =
  | Schemas["DrawAction"]
  | Schemas["MeldAction"]
  | Schemas["LayOffAction"]
  | Schemas["DiscardAction"];
type Event = Schemas["Event"];
type KnownEvent = Schemas["KnownEvent"];

const MAX_ACTIONS = 2000; // a game that never ends fails, never hangs

// A known event, by its `type`: a newer service may send types this client
// does not know (`UnknownEvent`), which a client skips.
function is<T extends KnownEvent["type"]>(
  event: Event,
  type: T,
): event is Extract<KnownEvent, { type: T }> {
  return event.type === type;
}

// The data of a successful answer; anything else stops the game.
async function must<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (data === undefined) {
    throw new Error(`${response.status} ${response.url}: ${JSON.stringify(error)}`);
  }
  return data;
}

// The first thing `legal` offers: a draw (from the stock if it may), a meld,
// a lay-off, else a discard.
function legalAction(legal: Legal): Action {
  const [source] = legal.draw;
  if (source !== undefined) {
    return { type: "draw", source: legal.draw.includes("stock") ? "stock" : source };
  }
  const [meld] = legal.melds;
  if (meld !== undefined) {
    // `legal` lists card codes as strings; an action takes the CardCode enum.
    return { type: "meld", cards: meld as Schemas["CardCode"][] };
  }
  const [layOff] = legal.lay_offs;
  if (layOff !== undefined) {
    return {
      type: "lay_off",
      card: layOff.card as Schemas["CardCode"],
      meld_id: layOff.meld_id,
    };
  }
  const [card] = legal.discard;
  if (card === undefined) {
    throw new Error("nothing is legal");
  }
  return { type: "discard", card: card as Schemas["CardCode"] };
}

async function main(baseUrl: string, newGame: Schemas["CreateGame"]): Promise<void> {
  const anyone = createClient<paths>({ baseUrl });
  const created = await must(anyone.POST("/games", { body: newGame }));
  const path = { game_id: created.game_id };
  // The `bearer` scheme: each player's client sends its token on every call.
  const players = new Map<number, Client<paths>>();
  for (const seat of created.players) {
    players.set(
      seat.seat,
      createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${seat.token}` } }),
    );
  }

  let view: View = await must(anyone.GET("/games/{game_id}", { params: { path } }));
  let actions = 0;
  while (view.status !== "finished") {
    if (actions++ >= MAX_ACTIONS) {
      throw new Error(`no end after ${MAX_ACTIONS} actions`);
    }
    const player = view.turn === null ? undefined : players.get(view.turn);
    if (player === undefined) {
      throw new Error(`no player to move: turn ${view.turn}`);
    }
    const mine = await must(player.GET("/games/{game_id}", { params: { path } }));
    if (mine.legal === undefined || mine.legal === null) {
      throw new Error("a player's view without `legal`");
    }
    view = await must(
      player.POST("/games/{game_id}/actions", { params: { path }, body: legalAction(mine.legal) }),
    );
  }

  const reader = players.get(0);
  if (reader === undefined) {
    throw new Error("no seat 0");
  }
  const events: Event[] = [];
  for (let after = 0; ; ) {
    const page = await must(
      reader.GET("/games/{game_id}/events", { params: { path, query: { after, limit: 50 } } }),
    );
    events.push(...page.events);
    const last = page.events.at(-1);
    if (!page.more || last === undefined) {
      break;
    }
    after = last.version;
  }
  const finished = events.at(-1);
  if (finished === undefined || !is(finished, "game_finished")) {
    throw new Error(`the last event is not game_finished: ${JSON.stringify(finished)}`);
  }
  const audit = await must(anyone.GET("/games/{game_id}/audit", { params: { path } }));

  console.log(
    JSON.stringify({
      game_id: created.game_id,
      status: view.status,
      version: view.version,
      winner: finished.winner,
      actions,
      event_versions: events.map((event) => event.version),
      event_types: events.map((event) => event.type),
      audit_status: audit.status,
      audit_length: audit.chain.length,
    }),
  );
}

const [baseUrl, newGame] = process.argv.slice(2);
if (baseUrl === undefined || newGame === undefined) {
  throw new Error("usage: tsx play.ts <base URL> <new game JSON>");
}
await main(baseUrl, JSON.parse(newGame) as Schemas["CreateGame"]);
