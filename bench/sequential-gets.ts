// Sequential GETs through the gateway, as the ledger and investments benches time them.

/** The value at percentile `p` of sorted latencies. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Latencies of `requests` sequential GETs of `url` (after 20 warm-up ones), in ms, sorted; `first` is the very first request's. */
export async function sequentialGets(url: string, headers: Record<string, string>, requests: number): Promise<{ times: number[]; first: number }> {
  const times: number[] = [];
  let first = 0;
  for (let i = 0; i < requests + 20; i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (i === 0) first = performance.now() - t0;
    if (i >= 20) times.push(performance.now() - t0);
  }
  return { times: times.sort((a, b) => a - b), first };
}
