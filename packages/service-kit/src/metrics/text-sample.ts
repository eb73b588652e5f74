/**
 * The value of the first series of `name` carrying every label of `labels` (others may be there
 * too) in Prometheus' text format or OpenMetrics (a line's exemplar, after ` # `, is left
 * out), or undefined: how tests, and anyone scripting against `/metrics`, read one figure
 * without a Prometheus server.
 */
export function metricSample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*?)\})? (\S+)(?: # \{.*)?$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}
