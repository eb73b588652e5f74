import type { IdentityDb } from "../db";
import { requireActor, type LocalHandler } from "../local-handlers";
import { userResource } from "./user-resource";

/** The signed-in user's own record. */
export function createUserHandlers(db: IdentityDb) {
  const me: LocalHandler<"users.me"> = async ({ actor }) => ({
    user: userResource(await db.user.findUniqueOrThrow({ where: { id: requireActor(actor).userId } })),
  });

  /** Sure's opt-in to the AI assistant; idempotent. */
  const enableAi: LocalHandler<"auth.enableAi"> = async ({ actor }) => ({
    user: userResource(await db.user.update({ where: { id: requireActor(actor).userId }, data: { aiEnabled: true } })),
  });

  return { "users.me": me, "auth.enableAi": enableAi };
}
