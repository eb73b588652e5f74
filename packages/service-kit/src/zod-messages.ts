import type { z } from "zod";

/** Turns zod issues into the readable strings of the error body's `errors` array. */
export function messagesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.filter((part) => typeof part !== "symbol").join(".");
    return field ? `${field} ${issue.message}` : issue.message;
  });
}
