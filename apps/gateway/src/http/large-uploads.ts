import express, { type Request, type Response } from "express";
import { AppError } from "@hearth/contracts";
import {
  JsonSyntaxError,
  OffThreadJson,
  Semaphore,
  SemaphoreFull,
  SemaphoreWaitAborted,
  hasLargeBody,
  readBodyBytes,
  SerializedInput,
  turnUntilAnswered,
  type AnswerTurnOptions,
} from "@hearth/service-kit";

export interface LargeUploadOptions extends AnswerTurnOptions {
  /** A body over this (or chunked) takes a turn; smaller ones never wait. */
  thresholdBytes: number;
  /** Large uploads handled at once by this gateway. */
  slots: number;
}

/** Eight 10 MB imports at once: two handled, two of one family waiting; more are refused. */
export const DEFAULT_LARGE_UPLOADS: LargeUploadOptions = { thresholdBytes: 1024 * 1024, slots: 2, waiting: 8, waitingPerFamily: 2, maxWaitMs: 5_000 };

const JSON_TYPES = ["application/json", "application/*+json"];
/** An upload's JSON is its file's text and a few dozen parameters: far more values is no upload of ours. */
const MAX_UPLOAD_JSON_VALUES = 10_000;

/**
 * The gateway's side of large uploads (a 10 MB import file, as JSON or a form): read in turns
 * that families share, and parsed off the event loop. Parsing one 10 MB JSON body took the
 * gateway's loop 35 to 130 ms in one piece, so one family's eight preflights at once held every
 * other family's requests for most of a second (p99 846 ms, measured through `npm start`).
 * A turn is held from the first byte read until the answer is sent (forwarding the text to
 * finance costs the loop too); a family past its share of the waiting line, or one that waited
 * `maxWaitMs`, is answered 429 with its body unread. Small bodies never wait.
 */
export function createLargeUploads(options: LargeUploadOptions = DEFAULT_LARGE_UPLOADS) {
  const turns = new Semaphore(options.slots);
  const json = new OffThreadJson();

  /** Waits for the family's turn when the body is large; throws 429 when refused. */
  async function turn(req: Request, res: Response, familyId: string): Promise<void> {
    if (!hasLargeBody(req, options.thresholdBytes)) return;
    try {
      await turnUntilAnswered(turns, res, familyId, options);
    } catch (err) {
      if (!(err instanceof SemaphoreFull || err instanceof SemaphoreWaitAborted)) throw err;
      throw new AppError("rate_limit_exceeded", {
        message: "Too many of this family's large uploads are waiting right now; try again in a moment",
        details: { reset_in_seconds: 2 },
      });
    }
  }

  /**
   * A JSON body of up to `limitBytes`, parsed as express.json would (strict: an object or an
   * array), off the event loop when it is plain UTF-8 JSON; a compressed body or another charset
   * is read by express.json itself.
   */
  async function readJson(req: Request, res: Response, limitBytes: number): Promise<unknown> {
    const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
    if (encoding !== "identity" || (charset !== undefined && charset !== "utf-8")) return viaExpressJson(req, res, limitBytes);
    const bytes = await readBodyBytes(req, limitBytes).catch(() => {
      // The caller went away mid-body (as express.json's "request aborted"): no one hears this answer.
      throw new AppError("bad_request", { message: "The request body could not be read" });
    });
    if (bytes === "too_large") {
      res.setHeader("connection", "close");
      throw new AppError("payload_too_large");
    }
    let body: unknown;
    try {
      body = await json.parse(bytes, { maxValues: MAX_UPLOAD_JSON_VALUES });
    } catch (err) {
      if (err instanceof JsonSyntaxError) throw new AppError("bad_request", { message: "Malformed JSON in request body" });
      throw err;
    }
    if (typeof body !== "object" || body === null) throw new AppError("bad_request", { message: "Malformed JSON in request body" });
    return body;
  }

  /** The input to forward to a service: a large upload's written as JSON off the event loop (stringifying 10 MB took the loop 60 to 100 ms). */
  async function forwarded(req: Request, input: unknown): Promise<unknown> {
    return hasLargeBody(req, options.thresholdBytes) ? new SerializedInput(await json.stringify(input)) : input;
  }

  return { turn, readJson, forwarded, close: () => json.close() };
}

export type LargeUploads = ReturnType<typeof createLargeUploads>;

function viaExpressJson(req: Request, res: Response, limitBytes: number): Promise<unknown> {
  const parse = express.json({ limit: limitBytes, strict: true, type: JSON_TYPES });
  return new Promise((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve(req.body))));
}
