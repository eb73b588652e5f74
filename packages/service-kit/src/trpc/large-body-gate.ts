import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeJwt } from "jose";
import type { WireAppError } from "@hearth/contracts";
import { Semaphore, SemaphoreFull, SemaphoreWaitAborted } from "../fair-semaphore";
import { INTERNAL_AUTH_HEADER, internalTokenOf } from "../internal-auth";

export interface LargeBodyGateOptions {
  /** A body larger than this (or of unknown length) waits its turn; smaller ones never wait. */
  thresholdBytes: number;
  /** Large requests handled at once in the process. */
  slots: number;
  /** Large requests that may wait at once; past it, and past one family's share, they are refused (429). */
  waiting: number;
  waitingPerFamily: number;
  /** A request waits at most this long for its turn, then is refused (429): well under its caller's timeout. */
  maxWaitMs: number;
  /** Bodies over this are refused by the handler anyway (413): they do not queue for it. */
  maxBodyBytes: number;
}

/**
 * Turns at the requests that carry large bodies (a 10 MB import file as JSON). Reading, decoding
 * and parsing one takes finance's event loop 35 to 40 ms before any handler runs, so eight
 * arriving together held every other family's requests for 300 to 450 ms. At most `slots` are
 * handled at once (from the first byte read to the answer sent); the others wait unread, a slot
 * freed going to the family with the fewest large requests running, then the longest waiter.
 * A family past its share of the waiting line is answered 429 at once, its body never parsed; so
 * is a request that waited `maxWaitMs`, and one whose caller gave up leaves the line. The family
 * is read from the internal token without verifying it (only for taking turns: the handler
 * verifies the token as always; only services on the internal network can send one).
 */
export function createLargeBodyGate(options: LargeBodyGateOptions) {
  const turns = new Semaphore(options.slots);
  return (req: IncomingMessage, res: ServerResponse, handle: () => void): void => {
    // A body of unknown length (chunked) may be large too; a request without one (a GET) never is.
    const declared = req.headers["content-length"];
    const length = declared === undefined ? null : Number(declared);
    const large = length !== null ? length > options.thresholdBytes : req.headers["transfer-encoding"] !== undefined;
    if (!large || (length !== null && length > options.maxBodyBytes)) return handle();
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(new Error("waited too long")), options.maxWaitMs);
    const gone = () => waiting.abort(new Error("the caller has gone"));
    res.once("close", gone);
    const started = () => {
      clearTimeout(timer);
      res.off("close", gone);
    };
    turns
      .run(
        () =>
          new Promise<void>((done) => {
            started();
            // Its caller gave up as its turn came: the slot goes on at once.
            if (res.closed || req.destroyed) return done();
            res.once("close", done);
            handle();
          }),
        options.waiting,
        { key: familyOf(req), maxQueuedOfKey: options.waitingPerFamily },
        waiting.signal,
      )
      .catch((err: unknown) => {
        started();
        if (err instanceof SemaphoreFull || err instanceof SemaphoreWaitAborted) {
          if (!res.closed) refuseBusy(req, res);
          else req.destroy();
          return;
        }
        throw err;
      });
  };
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

/** The error tRPC would answer for a rate_limit_exceeded AppError (its envelope, as service clients read it), once the body is drained unread. */
function refuseBusy(req: IncomingMessage, res: ServerResponse): void {
  const appError: WireAppError = {
    code: "rate_limit_exceeded",
    message: "Too many of this family's large uploads are waiting right now; try again in a moment",
    details: { reset_in_seconds: 2 },
    errors: null,
  };
  const body = JSON.stringify({ error: { message: appError.message, code: -32029, data: { code: "TOO_MANY_REQUESTS", httpStatus: 429, appError } } });
  req.resume();
  req.once("end", () => res.writeHead(429, { "content-type": "application/json" }).end(body));
  req.once("error", () => res.destroy());
}
