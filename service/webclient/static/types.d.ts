// The web client's types: the OpenAPI document's, as openapi-typescript
// generates them into `api-types.ts` beside these files (tests/webclient runs
// it into a scratch copy and type-checks every module with `tsc --strict`;
// generated code is never committed). Not served: the browser loads only the
// modules, whose JSDoc comments name these types.

import type { components, operations } from "./api-types";

type Schemas = components["schemas"];

export type CardCode = Schemas["CardCode"];
export type CreateGame = Schemas["CreateGame"];
export type CreatedGame = Schemas["CreatedGame"];
export type JoinedSeat = Schemas["JoinedSeat"];
export type LobbyPage = Schemas["LobbyPage"];
export type LobbyGame = Schemas["LobbyGame"];
export type StreamTicket = Schemas["StreamTicket"];
export type AuditExport = Schemas["AuditExport"];
export type ProblemBody = Schemas["Problem"];
export type MeldView = Schemas["MeldView"];
export type LayOffOption = Schemas["LayOffOption"];
export type SwapOption = Schemas["SwapOption"];
export type LastHand = Schemas["LastHand"];
export type HandResultSeat = Schemas["HandResultSeat"];
export type GameEvent = Schemas["Event"];
export type EventsPage = Schemas["EventsPage"];
export type KnownEvent = Schemas["KnownEvent"];

export type Leave = Schemas["Leave"];
export type PlayerSummary = Schemas["PlayerSummary"];

export type Legal = Schemas["LegalMoves"];
export type GameView = Schemas["GameView"];
export type Show = Schemas["ShowView"];

/** One action of `playActions`' body (which is one of these or a list of them). */
export type Action = Extract<
  operations["playActions"]["requestBody"]["content"]["application/json"],
  readonly unknown[]
>[number];
