import type { IncomingMessage, ServerResponse } from "node:http";
import { TRPCError } from "@trpc/server";
import { JsonSyntaxError, type OffThreadJson } from "./off-thread-json";
import { readBodyBytes } from "../net/read-body-bytes";
import { answerTrpcError } from "./trpc-error-answer";

const PREPARSED = Symbol("hearth.preparsed-input");

/** A request whose body was read and parsed before tRPC saw it: tRPC takes `body` (empty) instead of the spent stream. */
type PreparsedRequest = IncomingMessage & { body?: string; [PREPARSED]?: () => Promise<unknown> };

/**
 * Reads a large JSON body (a 10 MB import file) and has it parsed off the event loop, then lets
 * `handle` (tRPC's handler) run: tRPC's own reading would decode and parse it in one piece on
 * the loop. The procedure takes the parsed input through `preparsedInputOf` (trpc/server.ts).
 * A body past `maxBodyBytes` (one of unknown length) is answered 413, as tRPC would; a body
 * that is not JSON fails when the procedure reads its input, 400 with the parser's message, as
 * with tRPC's own reading.
 */
export async function readLargeJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  options: { maxBodyBytes: number; json: OffThreadJson },
  handle: () => void,
): Promise<void> {
  let bytes: Uint8Array<ArrayBuffer> | "too_large";
  try {
    bytes = await readBodyBytes(req, options.maxBodyBytes);
  } catch {
    // The caller went away mid-body: there is no one to answer.
    return;
  }
  if (bytes === "too_large") {
    res.setHeader("connection", "close");
    answerTrpcError(res, "PAYLOAD_TOO_LARGE", 413, { code: "payload_too_large", message: "The request body is too large", details: null, errors: null });
    return;
  }
  const parsing = options.json.parse(bytes);
  // Read only by a procedure that takes input: a request refused before that leaves it unread.
  parsing.catch(() => undefined);
  const preparsed = req as PreparsedRequest;
  preparsed.body = "";
  preparsed[PREPARSED] = async () => {
    try {
      return await parsing;
    } catch (err) {
      if (err instanceof JsonSyntaxError) throw new TRPCError({ code: "BAD_REQUEST", message: err.message, cause: err });
      throw err;
    }
  };
  handle();
}

/** The input `readLargeJsonBody` parsed for this request, if it did. */
export function preparsedInputOf(req: IncomingMessage): (() => Promise<unknown>) | undefined {
  return (req as PreparsedRequest)[PREPARSED];
}
