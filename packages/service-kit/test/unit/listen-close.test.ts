import { createServer } from "node:http";
import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { listen } from "../../src/trpc/service-server";

/** One GET over the agent: its status, or the error's code when no answer came. */
function get(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode)));
      res.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
    req.end();
  });
}

describe("closing a server under keep-alive load", () => {
  it("ends each connection after the request it serves: closes well within the grace, every request begun answered", async () => {
    const server = createServer((_req, res) => setTimeout(() => res.end("ok"), 20));
    const running = await listen(server, 0);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: string[] = [];
    let stopping = false;
    // Eight clients that never leave their connection idle, as a load balancer's pool under load.
    const clients = Array.from({ length: 8 }, async () => {
      while (!stopping) {
        const outcome = await get(running.url, agent);
        outcomes.push(outcome);
        if (outcome !== "200") break; // the server is gone: a real client would try another instance
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await running.close(5_000);
    const took = Date.now() - started;
    stopping = true;
    await Promise.all(clients);
    agent.destroy();

    expect(took).toBeLessThan(1_000); // not the 5 s grace: nothing was cut
    const answered = outcomes.filter((outcome) => outcome === "200").length;
    expect(answered).toBeGreaterThan(8);
    // After the close, a client's next request finds the connection closed or refused, never cut mid-answer.
    expect(outcomes.filter((outcome) => outcome !== "200").every((outcome) => outcome === "ECONNREFUSED" || outcome === "ECONNRESET")).toBe(true);
  });
});
