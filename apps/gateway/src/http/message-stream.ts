import { AI_READ, AppError, MessageProgressSchema, UuidSchema, type MessageProgress } from "@hearth/contracts";
import type { Express, Request, Response } from "express";
import type { ActorStandingOf } from "../identity/auth/actor-standing";
import { authenticatedActor, type RouteBindingDeps } from "./route-binding";

/** Each progress read waits this long for news, then the stream sends a keep-alive and asks again (within the service client's 10 s timeout). */
const WAIT_MS = 8_000;
/** A stream ends after this long whatever the answer does (an answer times out well before). */
const MAX_STREAM_MS = 20 * 60_000;
/** How often an open stream reads its credential's standing again (a key revoked, a user suspended or without AI since). */
export const STREAM_RECHECK_MS = 60_000;

export interface MessageStreamDeps extends RouteBindingDeps {
  standingOf: ActorStandingOf;
  /** STREAM_RECHECK_MS unless a test shortens it. */
  recheckMs?: number;
}

function send(res: Response, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * GET /api/v1/chats/:chat_id/messages/:id/stream (our extension to Sure's API): an answer as
 * server-sent events while it is produced: `text` ({ delta }), `tool_call` (a ToolCall), and one
 * `done` ({ message_id, status, error }) at the end. `id` is the answer's message, or a question
 * (then its latest answer). An answer already ended streams its whole text and `done` at once.
 * Polling GET /api/v1/chats/:id works as before. An open stream reads its credential's standing
 * and the AI switches again every `recheckMs`: one that no longer holds ends the stream with an
 * `error` event.
 */
export function mountMessageStream(app: Express, deps: MessageStreamDeps): void {
  const recheckMs = deps.recheckMs ?? STREAM_RECHECK_MS;
  app.get("/api/v1/chats/:chat_id/messages/:id/stream", async (req: Request, res: Response, next) => {
    const closed = new AbortController();
    res.on("close", () => closed.abort());
    try {
      const actor = await authenticatedActor(AI_READ, req, res, deps);
      const chatId = UuidSchema.safeParse(req.params["chat_id"]);
      const id = UuidSchema.safeParse(req.params["id"]);
      if (!chatId.success || !id.success) throw new AppError("not_found", { message: "Message not found" });
      const context = { requestId: res.locals["requestId"] as string, actor };
      const progress = async (textOffset: number, toolCallsSeen: number, waitMs: number): Promise<MessageProgress> =>
        MessageProgressSchema.parse(
          await deps.services.chat(
            "messages.progress",
            "mutation",
            { chat_id: chatId.data, id: id.data, text_offset: textOffset, tool_calls_seen: toolCallsSeen, wait_ms: waitMs },
            context,
          ),
        );
      // The first read does not wait: a missing chat or message is a plain 404 before the stream opens.
      let now = await progress(0, 0, 0);
      res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no" });
      res.flushHeaders();
      let textOffset = 0;
      let toolCallsSeen = 0;
      const deadline = Date.now() + MAX_STREAM_MS;
      let checkedAt = Date.now();
      for (;;) {
        for (const toolCall of now.tool_calls) send(res, "tool_call", toolCall);
        if (now.text !== "") send(res, "text", { delta: now.text });
        textOffset += now.text.length;
        toolCallsSeen += now.tool_calls.length;
        if (now.status !== "pending") {
          send(res, "done", { message_id: now.message_id, status: now.status, error: now.error });
          break;
        }
        if (closed.signal.aborted || Date.now() > deadline) break;
        // A comment line keeps proxies from closing a quiet stream.
        if (now.text === "" && now.tool_calls.length === 0) res.write(": waiting\n\n");
        if (Date.now() - checkedAt >= recheckMs) {
          const standing = await deps.standingOf(actor);
          if (!standing.granted) throw new AppError("unauthorized", { message: standing.reason ?? "The credential no longer holds" });
          await deps.assertAiEnabled(actor, context.requestId);
          checkedAt = Date.now();
        }
        now = await progress(textOffset, toolCallsSeen, Math.max(0, Math.min(WAIT_MS, checkedAt + recheckMs - Date.now())));
        if (closed.signal.aborted) break;
      }
      res.end();
    } catch (err) {
      if (!res.headersSent) {
        next(err instanceof AppError && err.code === "record_not_found" ? new AppError("not_found", { message: err.message, cause: err }) : err);
        return;
      }
      // The stream is open: say it failed, then end it.
      send(res, "error", { error: err instanceof AppError ? err.code : "internal_server_error" });
      res.end();
    }
  });
}
