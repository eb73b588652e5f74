// Container health probe of every Hearth service (the image has no curl or wget): GET /ready on
// the service's own PORT. Exit 0 when it answers 2xx, 1 otherwise (Docker's healthy/unhealthy).
// The default port is only a fallback; the services read PORT from the same environment.
const port = process.env.PORT || "3000";
const path = process.argv[2] || "/ready";

try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  if (!res.ok) {
    console.error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    process.exit(1);
  }
} catch (err) {
  console.error(`${path} unreachable on port ${port}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
