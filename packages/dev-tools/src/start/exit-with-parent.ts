// Preloaded into every child by start.ts: the supervisor holds the other end of the child's
// stdin, so end-of-file means it died (even by SIGKILL) and the child shuts down instead of
// lingering on its port. The child's own SIGTERM handling then stops it gracefully.
process.stdin.on("end", () => process.kill(process.pid, "SIGTERM"));
process.stdin.on("error", () => {});
process.stdin.resume();
