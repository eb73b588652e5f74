import { randomUUID } from "node:crypto";
import { trace } from "@opentelemetry/api";
import { RequestIdSchema } from "@hearth/contracts";
import type { RequestHandler } from "express";

/** Honours a sane incoming X-Request-Id (for correlation across clients) or makes one; echoes it back. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get("x-request-id");
  const id = incoming && RequestIdSchema.safeParse(incoming).success ? incoming : randomUUID();
  res.locals["requestId"] = id;
  res.setHeader("X-Request-Id", id);
  // On the request's span too, so logs (request_id), traces and the client's header meet on one value.
  trace.getActiveSpan()?.setAttribute("hearth.request_id", id);
  next();
};
