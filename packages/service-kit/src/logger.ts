import { trace } from "@opentelemetry/api";
import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";

export type { Logger } from "pino";

/** Paths pino blanks out wherever they appear in a log line: secrets never reach the logs. */
export const REDACTED_PATHS = [
  "password",
  "*.password",
  "*.*.password",
  "otp_code",
  "*.otp_code",
  "token",
  "*.token",
  "refresh_token",
  "*.refresh_token",
  "access_token",
  "*.access_token",
  "key",
  "*.key",
  "req.headers.authorization",
  "req.headers['x-api-key']",
  "req.headers['x-hearth-internal']",
  "headers.authorization",
  "headers['x-api-key']",
  "headers['x-hearth-internal']",
];

/** Where log lines go instead of stdout: anything with `write(line)` (tests capture them). */
export type LogDestination = DestinationStream;

/** The one pino root of a process; every line carries the active trace and span ids. */
export function createLogger(service: string, level = "info", destination?: LogDestination): Logger {
  const options: LoggerOptions = {
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
