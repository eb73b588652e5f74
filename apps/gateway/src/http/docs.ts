import { createRequire } from "node:module";
import path from "node:path";
import express, { type Express } from "express";
import { buildOpenApiDocument } from "@hearth/contracts";

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: "/api/v1/openapi.json", dom_id: "#docs" });`;

/** GET /api/v1/openapi.json (generated from the contracts) and a Swagger UI page at /api/docs, served locally. */
export function mountDocs(app: Express): void {
  const document = buildOpenApiDocument();
  app.get("/api/v1/openapi.json", (_req, res) => {
    res.json(document);
  });
  // Swagger UI needs inline styles; the page gets its own, narrower CSP than the JSON API.
  const docsCsp = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; script-src 'self'";
  app.get("/api/docs", (_req, res) => {
    res.setHeader("Content-Security-Policy", docsCsp).type("html").send(DOCS_PAGE);
  });
  app.get("/api/docs/init.js", (_req, res) => {
    res.type("application/javascript").send(INIT_SCRIPT);
  });
  app.use(
    "/api/docs/assets",
    (_req, res, next) => {
      res.setHeader("Content-Security-Policy", docsCsp);
      next();
    },
    express.static(swaggerUiDir, { index: false }),
  );
}
