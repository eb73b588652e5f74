import type { IncomingMessage } from "node:http";

/**
 * A request's whole body as one array of bytes (its own buffer, so it can be transferred to a
 * worker), or "too_large" as soon as it passes `limitBytes`: the rest is left unread (the request
 * is paused, not destroyed, so an answer can still be sent). Rejects when the caller goes away
 * before the body ended.
 */
export function readBodyBytes(req: IncomingMessage, limitBytes: number): Promise<Uint8Array<ArrayBuffer> | "too_large"> {
  if (Number(req.headers["content-length"] ?? 0) > limitBytes) return Promise.resolve("too_large");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.pause();
      resolve("too_large");
    };
    const onEnd = () => {
      stop();
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      resolve(bytes);
    };
    const onGone = (err: Error) => {
      stop();
      reject(err);
    };
    const onClose = () => {
      if (!req.complete) onGone(new Error("the caller went away before the body ended"));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("close", onClose);
  });
}
