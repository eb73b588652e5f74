import { expect } from "vitest";
import { routes, type Actor, type ErrorCode, type ProcedureName, type internalProcedures } from "@hearth/contracts";
import type { CallKind } from "@hearth/service-kit";
import { contextOf, newActor } from "../service-harness";

type InternalDefs = typeof internalProcedures;
type InternalProcedureName = { [S in keyof InternalDefs]: keyof InternalDefs[S] & string }[keyof InternalDefs];

/** One procedure the shared suites call: an input it accepts and what a signed call answers. */
export interface ProcedureCase {
  /** A public route of the contracts (called for a user) or an internal procedure (called for no one). */
  procedure: ProcedureName | InternalProcedureName;
  /** A fresh input for each call: an audit event, say, must carry a new id every time. */
  input: () => unknown;
  /** What a signed call for a fresh user of a family of their own (internal: for no one) answers. */
  answer: { toEqual: unknown } | { toMatchObject: object };
  /** The error a read-only API key gets instead, when the route's access refuses it. */
  refusesReadOnlyKey?: ErrorCode;
}

/** Public procedures are the route table's; the rest are service-to-service. */
export function isPublic(c: ProcedureCase): c is ProcedureCase & { procedure: ProcedureName } {
  return Object.hasOwn(routes, c.procedure);
}

/** GET routes are queries, the rest (internal procedures too) mutations: as the service router builds them. */
export function kindOf(c: ProcedureCase): CallKind {
  return isPublic(c) && routes[c.procedure].method === "GET" ? "query" : "mutation";
}

/** The context the gateway signs: a user for a public procedure; no one for an internal one, as the outbox relay signs. */
export function contextFor(c: ProcedureCase, actor: Actor = newActor()) {
  return contextOf(isPublic(c) ? actor : null);
}

export function expectAnswer(c: ProcedureCase, answer: unknown): void {
  if ("toEqual" in c.answer) expect(answer, c.procedure).toEqual(c.answer.toEqual);
  else expect(answer, c.procedure).toMatchObject(c.answer.toMatchObject);
}
