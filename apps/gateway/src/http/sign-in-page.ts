import type { Express } from "express";

// Sure's sign-in page path. The Sure mobile app's "Test connection" (backend_config_screen.dart
// 93-107) fetches it and counts any 2xx or 3xx as "this is a Sure server"; Hearth signs in
// through its API only, so the page says so.
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Hearth: sign in</title></head>
<body>
<main>
<h1>Hearth</h1>
<p>This Hearth server is ready. Sign in from the app, or through the API at <code>POST /api/v1/auth/login</code>.</p>
<p>The API is described at <a href="/api/docs">/api/docs</a>.</p>
</main>
</body>
</html>
`;

export function mountSignInPage(app: Express): void {
  app.get("/sessions/new", (_req, res) => {
    res.type("html").send(PAGE);
  });
}
