import type { z } from "zod";
import type { RouteInput, RouteOutput } from "./route";
import type { ProcedureName, Routes } from "./routes";

// Services name their inputs and outputs through these, never by restating a shape: a field
// added to a contract reaches the code that must handle it, or fails to type-check there.

/** What a procedure receives: path parameters, query and body merged. */
export type InputOf<K extends ProcedureName> = RouteInput<Routes[K]>;
/** What a procedure answers (before output validation). */
export type OutputOf<K extends ProcedureName> = RouteOutput<Routes[K]>;
/** A route's validated query string. */
export type QueryOf<K extends ProcedureName> = NonNullable<Routes[K]["query"]> extends infer Q extends z.ZodType ? z.output<Q> : never;
/** A route's validated body. */
export type BodyOf<K extends ProcedureName> = NonNullable<Routes[K]["body"]> extends infer B extends z.ZodType ? z.output<B> : never;
