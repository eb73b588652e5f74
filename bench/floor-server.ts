// The floor the gateway is measured against: a bare node:http server answering the same
// by-id read with one `pg` query, no framework, no authentication, no second hop.
import { createServer, type Server } from "node:http";
import pg from "pg";

export interface FloorServer {
  url: (id: string) => string;
  stop: () => Promise<void>;
}

export async function startFloorServer(databaseUrl: string): Promise<FloorServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const server: Server = createServer((req, res) => {
    const id = (req.url ?? "").slice("/tags/".length);
    pool.query("SELECT id, name, color, created_at, updated_at FROM tags WHERE id = $1", [id]).then(
      ({ rows }) => {
        res.writeHead(rows[0] ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(rows[0] ?? { error: "not_found" }));
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: (id) => `http://127.0.0.1:${port}/tags/${id}`,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
