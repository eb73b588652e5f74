import { seconds } from "./figures";
import { answersOk, pidOf, until } from "./processes";
import type { Stack } from "./stack";

type SupervisedService = "finance" | "chat" | "notifications" | "audit";

/**
 * SIGKILLs one of npm start's services and waits until its supervisor has started it again (a new
 * process that answers /ready). Answers when it was killed and how many seconds it was away.
 */
export async function killAndAwaitRestart(stack: Stack, service: SupervisedService): Promise<{ killedAt: number; backAfterSeconds: number }> {
  const oldPid = await pidOf(service, stack.dataDir);
  process.kill(oldPid, "SIGKILL");
  const killedAt = Date.now();
  const url = await stack.serviceUrl(service);
  await until(
    async () => (await answersOk(`${url}/ready`)) && (await pidOf(service, stack.dataDir).catch(() => oldPid)) !== oldPid,
    60_000,
    `the ${service} service started again`,
  );
  return { killedAt, backAfterSeconds: seconds(killedAt) };
}
