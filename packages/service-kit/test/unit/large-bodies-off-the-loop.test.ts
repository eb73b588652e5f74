// Large request bodies read and written off the event loop, so families get fair turns at it:
// the JSON worker itself, a service server that parses a large body on it before tRPC runs, and
// a client that sends an input already written as JSON.
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import pino from "pino";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@hearth/contracts";
import { JsonSyntaxError, OffThreadJson } from "../../src/trpc/off-thread-json";
import { hasLargeBody } from "../../src/trpc/large-body-gate";
import { appErrorToTrpc, internalProcedure, t } from "../../src/trpc/server";
import { SerializedInput, createServiceClient } from "../../src/trpc/service-client";
import { createServiceServer, listen, type RunningServer } from "../../src/trpc/service-server";
import { createInternalSigner, INTERNAL_AUTH_HEADER } from "../../src/internal-auth";

const SECRET = "s".repeat(48);
const actor = { userId: randomUUID(), familyId: randomUUID(), role: "admin" as const, scopes: ["read_write" as const], authMethod: "api_key" as const };
/** Over the server's 64 KiB threshold below: handled as a large body. */
const LARGE_TEXT = "date,amount,name\n" + '2026-01-02,-4.50,"Caf\u00e9 ""corner"", branch 7"\n'.repeat(4_000);

describe("which bodies are large", () => {
  const withHeaders = (headers: Record<string, string>) => ({ headers }) as unknown as Parameters<typeof hasLargeBody>[0];
  it("counts a body over the threshold, a chunked one and a compressed one (10 MB of text gzips to a few KB) as large", () => {
    expect(hasLargeBody(withHeaders({ "content-length": "2000" }), 1000)).toBe(true);
    expect(hasLargeBody(withHeaders({ "content-length": "500" }), 1000)).toBe(false);
    expect(hasLargeBody(withHeaders({ "transfer-encoding": "chunked" }), 1000)).toBe(true);
    expect(hasLargeBody(withHeaders({ "content-length": "500", "content-encoding": "gzip" }), 1000)).toBe(true);
    expect(hasLargeBody(withHeaders({ "content-length": "500", "content-encoding": "identity" }), 1000)).toBe(false);
    expect(hasLargeBody(withHeaders({}), 1000)).toBe(false);
  });
});

describe("the JSON worker", () => {
  const json = new OffThreadJson();
  afterAll(() => json.close());

  it("parses UTF-8 bytes and writes JSON exactly as JSON.parse and JSON.stringify do", async () => {
    const value = { text: LARGE_TEXT, n: 12.5, list: [true, null, "\u2028 emoji \u{1F4B6}"] };
    const written = await json.stringify(value);
    expect(new TextDecoder().decode(written)).toBe(JSON.stringify(value));
    expect(await json.parse(new TextEncoder().encode(JSON.stringify(value)))).toEqual(value);
    // A byte order mark is dropped, as tRPC's own reading (Request.text()) drops it.
    expect(await json.parse(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":1}')]))).toEqual({ a: 1 });
  });

  it("rejects what is not JSON with the parser's message, and starts again after its worker died", async () => {
    await expect(json.parse(new TextEncoder().encode('{"a":'))).rejects.toBeInstanceOf(JsonSyntaxError);
    // More values than the caller takes: refused on the worker, never copied back.
    const many = new TextEncoder().encode(JSON.stringify({ rows: Array.from({ length: 50 }, () => ({ a: 0 })) }));
    await expect(json.parse(many, { maxValues: 100 })).rejects.toBeInstanceOf(JsonSyntaxError);
    expect(await json.parse(new TextEncoder().encode('{"a":[1,2,3]}'), { maxValues: 5 })).toEqual({ a: [1, 2, 3] });
    // A value that cannot be sent to the worker is refused here, and leaves nothing waiting.
    await expect(json.stringify({ call: () => 1 })).rejects.toThrow();
    await json.close();
    expect(await json.parse(new TextEncoder().encode("[1,2]"))).toEqual([1, 2]);
  });
});

const router = t.router({
  echoLength: internalProcedure.input(z.object({ text: z.string() })).mutation(({ input }) => ({ length: input.text.length, head: input.text.slice(0, 30) })),
  refuse: internalProcedure.input(z.object({ text: z.string() })).mutation(() => {
    throw appErrorToTrpc(new AppError("content_too_large", { message: "Content is too large. Maximum size is 10MB." }));
  }),
});

describe("a service server taking large bodies", () => {
  let open: RunningServer;
  beforeAll(async () => {
    const server = createServiceServer({
      service: "large-bodies-test",
      router,
      log: pino({ level: "silent" }),
      internalAuthSecret: SECRET,
      readiness: async () => {},
      maxBodyBytes: 1024 * 1024,
      largeBodies: { thresholdBytes: 64 * 1024, slots: 1, waiting: 4, waitingPerFamily: 2, maxWaitMs: 5_000 },
    });
    open = await listen(server, 0);
  });
  afterAll(() => open?.close());

  const call = () => createServiceClient({ service: "large-bodies-test", url: open.url, caller: "gateway", internalAuthSecret: SECRET });

  it("hands the procedure the large input it was sent, written by the client or already written as JSON", async () => {
    const expected = { length: LARGE_TEXT.length, head: LARGE_TEXT.slice(0, 30) };
    expect(await call()("echoLength", "mutation", { text: LARGE_TEXT }, { requestId: "r1", actor })).toEqual(expected);
    const written = new SerializedInput(new TextEncoder().encode(JSON.stringify({ text: LARGE_TEXT })));
    expect(await call()("echoLength", "mutation", written, { requestId: "r2", actor })).toEqual(expected);
  });

  it("brings a service's error back through an input already written as JSON, as through tRPC's client", async () => {
    const written = new SerializedInput(new TextEncoder().encode(JSON.stringify({ text: LARGE_TEXT })));
    await expect(call()("refuse", "mutation", written, { requestId: "r3", actor })).rejects.toMatchObject({
      code: "content_too_large",
      message: "Content is too large. Maximum size is 10MB.",
    });
    await expect(call()("refuse", "mutation", { text: "small" }, { requestId: "r4", actor })).rejects.toMatchObject({ code: "content_too_large" });
  });

  /** A raw POST with a chunked body (no length declared), answering status and JSON. */
  async function postChunked(path: string, parts: string[]): Promise<{ status: number; body: Record<string, unknown> }> {
    const token = await createInternalSigner(SECRET, "gateway")("large-bodies-test", { requestId: "r5", actor });
    return new Promise((resolve, reject) => {
      const req = request(`${open.url}${path}`, { method: "POST", headers: { "content-type": "application/json", [INTERNAL_AUTH_HEADER]: token } }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on("error", reject);
      for (const part of parts) req.write(part);
      req.end();
    });
  }

  it("answers a body that is not JSON 400 with the parser's message, and one past the limit 413, as tRPC does", async () => {
    const malformed = await postChunked("/trpc/echoLength", ['{"text": "', "x".repeat(100 * 1024)]);
    expect(malformed.status).toBe(400);
    const tooLarge = await postChunked("/trpc/echoLength", ['{"text": "', ...Array.from({ length: 20 }, () => "x".repeat(64 * 1024)), '"}']);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ error: { data: { httpStatus: 413, appError: { code: "payload_too_large" } } } });
  });
});
