import type { z } from "zod";

function humanize(segment: string): string {
  const words = segment.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Turns zod issues into the readable strings of the error body's `errors` array, Rails-style
 * like Sure's ("Name can't be blank"): our own messages already name the field and are used
 * as they are; zod's generic ones are prefixed with the field's path.
 */
export function messagesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.filter((part) => typeof part !== "symbol").map(String);
    const last = path.at(-1);
    if (last === undefined) return issue.message;
    const field = humanize(/^\d+$/.test(last) ? path.join(".") : last);
    if (issue.message.toLowerCase().startsWith(field.toLowerCase()) || issue.message.startsWith(`${last} `)) return issue.message;
    if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return `${path.join(".")} is required`;
    return `${path.join(".")}: ${issue.message}`;
  });
}
