// autocannon `setupClient` module for bench/login.bench.ts. autocannon's load runs in a worker
// thread, which loads this file there (a module path is the only form workers accept) and
// reports a few fixed percentiles only; this posts the time of every response, in ms, to the
// bench on the main thread, so it can compute any percentile (p95).
const channel = new BroadcastChannel("hearth-bench-latencies");
channel.unref(); // the worker must still exit when its run ends

module.exports = function setupClient(client) {
  client.on("response", (statusCode, _bytes, responseTime) => channel.postMessage({ statusCode, responseTime }));
};
