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
export type StreamTicket = Schemas["StreamTicket"];
export type AuditExport = Schemas["AuditExport"];
export type ProblemBody = Schemas["Problem"];
export type MeldView = Schemas["MeldView"];
export type LayOffOption = Schemas["LayOffOption"];
export type SwapOption = Schemas["SwapOption"];
export type LastHand = Schemas["LastHand"];
export type GameEvent = Schemas["Event"];
export type KnownEvent = Schemas["KnownEvent"];

/** One action of `playActions`' body (which is one of these or a list of them). */
type DocumentAction = Extract<
  operations["playActions"]["requestBody"]["content"]["application/json"],
  readonly unknown[]
>[number];

// Indian Rummy (../shared/API.md "Variants"), which the document does not have
// yet: its actions, `legal` keys and view fields, as the contract names them.
// Once the document has them these add nothing and may go.

export interface DeclareAction {
  type: "declare";
  card: CardCode;
  groups: CardCode[][];
}
export interface SubmitGroupsAction {
  type: "submit_groups";
  groups: CardCode[][];
}
export interface DropAction {
  type: "drop";
}
export type Action = DocumentAction | DeclareAction | SubmitGroupsAction | DropAction;

export type Legal = Schemas["LegalMoves"] & {
  can_declare?: boolean | null;
  can_drop?: boolean | null;
  drop_points?: number | null;
  can_submit?: boolean | null;
};

export interface Show {
  seat: number;
  card?: string | null;
  groups: { cards: string[]; kind: string }[];
  valid?: boolean | null;
  points: number;
}

export type GameView = Omit<Schemas["GameView"], "legal" | "phase" | "wild" | "players"> & {
  legal?: Legal | null;
  phase: Schemas["Phase"] | "show" | null;
  wild?: (Schemas["WildView"] & { indicator?: string | null }) | null;
  players: (Schemas["PlayerSummary"] & { status?: string | null })[];
  shows?: Show[] | null;
};
