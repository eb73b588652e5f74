import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a sane incoming X-Request-Id (for correlation across clients) or makes one; echoes it back. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get("x-request-id");
  const id = incoming && ACCEPTABLE.test(incoming) ? incoming : randomUUID();
  res.locals["requestId"] = id;
  res.setHeader("X-Request-Id", id);
  next();
};
