import { styleText } from "node:util";

/** A failure to explain to the user in one message: printed without a stack trace. */
export class StartError extends Error {
  override name = "StartError";
}

const TAG = "[hearth]";

export function say(message: string): void {
  process.stdout.write(`${styleText("bold", TAG, { stream: process.stdout })} ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`${styleText(["bold", "red"], TAG, { stream: process.stderr })} ${message}\n`);
}

/** The message to show for anything thrown: a StartError as it is, anything else with its stack. */
export function describeError(error: unknown): string {
  if (error instanceof StartError) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
