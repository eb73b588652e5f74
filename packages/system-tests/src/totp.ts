import { setTimeout as sleep } from "node:timers/promises";
import { generate } from "otplib";

const STEP_SECONDS = 30;
/** Longer than a code takes from here to the gateway's check, even on a loaded machine. */
const MARGIN_SECONDS = 5;

/**
 * The code an authenticator app shows `steps` time steps (30 s each) from now. Made in the first
 * 25 s of a step (it waits out the last 5 s first), so the server checks it in the same step: a
 * code of the previous step made at 29.9 s was two steps old on arrival and refused (mfa.test.ts
 * failed so once in CI).
 */
export async function totpCode(secret: string, steps = 0): Promise<string> {
  const intoStep = (Date.now() / 1000) % STEP_SECONDS;
  if (intoStep > STEP_SECONDS - MARGIN_SECONDS) await sleep((STEP_SECONDS - intoStep) * 1000 + 50);
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * STEP_SECONDS });
}
