import { answersOk, until } from "./processes";
import type { Stack } from "./stack";

/**
 * Every app answers /ready: the scenarios share one stack, so one that starts on a stack an
 * earlier scenario left broken says so instead of failing somewhere in its own figures.
 */
export async function waitForHealthyStack(stack: Stack, timeoutMs = 60_000): Promise<void> {
  const urls = [
    `${stack.gatewayUrl}/ready`,
    ...(await Promise.all((["finance", "chat", "notifications", "audit"] as const).map(async (service) => `${await stack.serviceUrl(service)}/ready`))),
  ];
  for (const url of urls) await until(() => answersOk(url), timeoutMs, `${url} answering 200 (an earlier scenario may have left the stack broken)`);
}
