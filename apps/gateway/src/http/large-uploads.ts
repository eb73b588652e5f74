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
  /** A body over this (chunked, or compressed) is a large upload; smaller ones never wait. */
  thresholdBytes: number;
  /** Large uploads being received at once, and of one family: past either, 429 at once. */
  receiving: number;
  receivingPerFamily: number;
  /** Large uploads parsed and forwarded at once by this gateway (families in turns). */
  slots: number;
}

/**
 * Four of a family's large uploads received at once, twenty-four in all; two handled at once, two
 * of one family waiting for their turn; more are refused.
 */
export const DEFAULT_LARGE_UPLOADS: LargeUploadOptions = {
  thresholdBytes: 1024 * 1024,
  receiving: 24,
  receivingPerFamily: 4,
  slots: 2,
  waiting: 8,
  waitingPerFamily: 2,
  maxWaitMs: 5_000,
};

const JSON_TYPES = ["application/json", "application/*+json"];
/** As express.json and the worker read a body: a leading byte order mark dropped, invalid bytes as U+FFFD. */
const utf8 = new TextDecoder("utf-8");
/** An upload's JSON is its file's text and a few dozen parameters: far more values is no upload of ours. */
const MAX_UPLOAD_JSON_VALUES = 10_000;

/** A body as received: its value, its JSON's bytes still to parse, or a read left for its turn. */
export type ReceivedBody = { value: unknown } | { jsonBytes: Uint8Array<ArrayBuffer> } | { atTurn: () => Promise<unknown> };

const busy = () =>
  new AppError("rate_limit_exceeded", {
    message: "Too many of this family's large uploads are under way right now; try again in a moment",
    details: { reset_in_seconds: 2 },
  });

/**
 * The gateway's side of large uploads (a 10 MB import file, as JSON or a form). Parsing one
 * 10 MB JSON body took the gateway's loop 35 to 130 ms in one piece and writing it again to
 * forward it 60 to 100 ms, so one family's eight preflights at once held every other family's
 * requests for most of a second (p99 846 ms, measured through `npm start`). Now:
 * - a large upload is received (its bytes read, at the client's pace) only while its family has
 *   fewer than `receivingPerFamily` under way, and all families fewer than `receiving`: a slow
 *   client holds its own family's places, never a shared one;
 * - then it takes a turn (`slots` at once, families in turns, held until its answer is sent) to
 *   be parsed and written again on a worker thread (OffThreadJson) and forwarded;
 * - past its family's share of either, or after waiting `maxWaitMs` for a turn, it is answered
 *   429 at once. Small bodies never wait.
 */
export function createLargeUploads(options: LargeUploadOptions = DEFAULT_LARGE_UPLOADS) {
  const turns = new Semaphore(options.slots);
  const json = new OffThreadJson();
  const receivingOf = new Map<string, number>();
  let receiving = 0;

  /** A place to receive one of the family's large uploads, given back when its answer is sent or its caller has gone. */
  function admit(res: Response, familyId: string): void {
    const own = receivingOf.get(familyId) ?? 0;
    if (own >= options.receivingPerFamily || receiving >= options.receiving) throw busy();
    receivingOf.set(familyId, own + 1);
    receiving++;
    res.once("close", () => {
      const left = (receivingOf.get(familyId) ?? 1) - 1;
      if (left > 0) receivingOf.set(familyId, left);
      else receivingOf.delete(familyId);
      receiving--;
    });
  }

  async function turn(res: Response, familyId: string): Promise<void> {
    try {
      await turnUntilAnswered(turns, res, familyId, options);
    } catch (err) {
      if (!(err instanceof SemaphoreFull || err instanceof SemaphoreWaitAborted)) throw err;
      throw busy();
    }
  }

  /**
   * An upload route's body, read by `read`. A large one (of an authenticated family) is received
   * in one of its family's places, then parsed at its turn.
   */
  async function receive(req: Request, res: Response, familyId: string | null, read: () => Promise<ReceivedBody>): Promise<unknown> {
    const large = familyId !== null && isLarge(req);
    if (large) admit(res, familyId);
    const received = await read();
    if (large) await turn(res, familyId);
    if ("value" in received) return received.value;
    if ("atTurn" in received) return received.atTurn();
    return parseUpload(received.jsonBytes);
  }

  /**
   * A JSON body of up to `limitBytes`, to be parsed as express.json would (strict: an object or
   * an array): plain UTF-8 JSON is read now and parsed on the worker; a compressed body or another
   * charset is left to express.json, at its turn.
   */
  async function receiveJson(req: Request, res: Response, limitBytes: number): Promise<ReceivedBody> {
    const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
    if (encoding !== "identity" || (charset !== undefined && charset !== "utf-8")) return { atTurn: () => viaExpressJson(req, res, limitBytes) };
    const bytes = await readBodyBytes(req, limitBytes).catch(() => {
      // The caller went away mid-body (as express.json's "request aborted"): no one hears this answer.
      throw new AppError("bad_request", { message: "The request body could not be read" });
    });
    if (bytes === "too_large") {
      res.setHeader("connection", "close");
      throw new AppError("payload_too_large");
    }
    return { jsonBytes: bytes };
  }

  /**
   * A large body on the worker; a small one (most uploads: a bank's month is a few KB) here, as
   * express.json did, without a trip to the worker and back, and without the value cap, which
   * bounds the copy back from the worker (a small body's values are bounded by its size).
   */
  async function parseUpload(bytes: Uint8Array<ArrayBuffer>): Promise<unknown> {
    let body: unknown;
    try {
      body = bytes.byteLength <= options.thresholdBytes ? JSON.parse(utf8.decode(bytes)) : await json.parse(bytes, { maxValues: MAX_UPLOAD_JSON_VALUES });
    } catch (err) {
      if (err instanceof JsonSyntaxError || err instanceof SyntaxError) throw new AppError("bad_request", { message: "Malformed JSON in request body" });
      throw err;
    }
    if (typeof body !== "object" || body === null) throw new AppError("bad_request", { message: "Malformed JSON in request body" });
    return body;
  }

  /** The input to forward to a service: a large upload's written as JSON off the event loop (stringifying 10 MB took the loop 60 to 100 ms). */
  async function forwarded(req: Request, input: unknown): Promise<unknown> {
    return isLarge(req) ? new SerializedInput(await json.stringify(input)) : input;
  }

  const isLarge = (req: Request) => hasLargeBody(req, options.thresholdBytes);

  return { receive, receiveJson, forwarded, isLarge, close: () => json.close() };
}

export type LargeUploads = ReturnType<typeof createLargeUploads>;

function viaExpressJson(req: Request, res: Response, limitBytes: number): Promise<unknown> {
  const parse = express.json({ limit: limitBytes, strict: true, type: JSON_TYPES });
  return new Promise((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve(req.body))));
}
