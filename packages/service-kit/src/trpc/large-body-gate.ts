import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeJwt } from "jose";
import type { WireAppError } from "@hearth/contracts";
import { Semaphore, SemaphoreFull, SemaphoreWaitAborted } from "../fair-semaphore";
import { INTERNAL_AUTH_HEADER, internalTokenOf } from "../internal-auth";
import { answerTrpcError } from "./trpc-error-answer";
import { turnUntilAnswered, type AnswerTurnOptions } from "./turn-until-answered";

export interface LargeBodyGateOptions extends AnswerTurnOptions {
  /** A body larger than this (or of unknown length) waits its turn; smaller ones never wait. */
  thresholdBytes: number;
  /** Large requests handled at once in the process. */
  slots: number;
  /** Bodies over this are refused by the handler anyway (413): they do not queue for it. */
  maxBodyBytes: number;
}

/**
 * Turns at the requests that carry large bodies (a 10 MB import file as JSON). Reading, decoding
 * and parsing one took finance's event loop 35 to 130 ms before any handler runs, so eight
 * arriving together held every other family's requests for 300 to 450 ms; the body is now parsed
 * off the loop (large-body-input.ts), and the turns keep what is left (the file's read in turns)
 * to `slots` at once, from the first byte read to the answer sent. The others wait unread, a slot
 * freed going to the family with the fewest large requests running, then the longest waiter. A
 * family past its share of the waiting line is answered 429 at once, its body never parsed; so
 * is a request that waited `maxWaitMs`, and one whose caller gave up leaves the line. The family
 * is read from the internal token without verifying it (only for taking turns: the handler
 * verifies the token as always; only services on the internal network can send one).
 */
export function createLargeBodyGate(options: LargeBodyGateOptions) {
  const turns = new Semaphore(options.slots);
  return (req: IncomingMessage, res: ServerResponse, handle: (large: boolean) => void): void => {
    const length = declaredLength(req);
    if (!hasLargeBody(req, options.thresholdBytes) || (length !== null && length > options.maxBodyBytes)) return handle(false);
    turnUntilAnswered(turns, res, familyOf(req), options).then(
      () => handle(true),
      (err: unknown) => {
        if (!(err instanceof SemaphoreFull || err instanceof SemaphoreWaitAborted)) throw err;
        if (!res.closed) refuseBusy(req, res);
        else req.destroy();
      },
    );
  };
}

function declaredLength(req: IncomingMessage): number | null {
  const declared = req.headers["content-length"];
  return declared === undefined ? null : Number(declared);
}

/**
 * A body over `thresholdBytes`, of unknown length (chunked: it may be large too), or compressed
 * (its declared length is the compressed one: 10 MB of JSON text gzips to a few KB); a request
 * without one (a GET) never is.
 */
export function hasLargeBody(req: IncomingMessage, thresholdBytes: number): boolean {
  const length = declaredLength(req);
  if (length === null) return req.headers["transfer-encoding"] !== undefined;
  const encoding = req.headers["content-encoding"];
  return length > thresholdBytes || (length > 0 && encoding !== undefined && encoding.toLowerCase() !== "identity");
}

function familyOf(req: IncomingMessage): string {
  const header = req.headers[INTERNAL_AUTH_HEADER];
  if (typeof header !== "string") return "";
  try {
    const claims = decodeJwt(internalTokenOf(header)) as { ctx?: { actor?: { familyId?: unknown } | null } };
    const familyId = claims.ctx?.actor?.familyId;
    return typeof familyId === "string" ? familyId : "";
  } catch {
    return "";
  }
}

/**
 * A rate_limit_exceeded error, at once: the body is never read (Node.js closes the connection
 * once the answer is written). Draining five refused 10 MB bodies cost the event loop more than
 * reading the one taken.
 */
function refuseBusy(req: IncomingMessage, res: ServerResponse): void {
  const appError: WireAppError = {
    code: "rate_limit_exceeded",
    message: "Too many of this family's large uploads are waiting right now; try again in a moment",
    details: { reset_in_seconds: 2 },
    errors: null,
  };
  answerTrpcError(res, "TOO_MANY_REQUESTS", 429, appError);
  req.resume();
}
