import { AppError, FAMILY_AI_OFF, type Actor } from "@hearth/contracts";
import { createTypedServiceClient, type ServiceCall } from "@hearth/service-kit";

/**
 * The gate of the assistant's routes: both switches must be on, the user's own (Sure's
 * enable_ai, kept by the gateway) and the family's (family settings' ai_enabled, kept by
 * finance). Both are read live, at once, so turning either off takes effect with the next
 * request. Off is 403 `feature_disabled`, saying which switch is off.
 */
export function createAiSwitch(userAiEnabled: (userId: string) => Promise<boolean>, finance: ServiceCall) {
  return async (actor: Actor, requestId: string): Promise<void> => {
    const [user, family] = await Promise.all([
      userAiEnabled(actor.userId),
      createTypedServiceClient("finance", (procedure, kind, input) => finance(procedure, kind, input, { requestId, actor }))
        .call("familySettings.aiEnabled", {})
        .then((answer) => answer.ai_enabled),
    ]);
    if (!user) throw new AppError("feature_disabled");
    if (!family) throw new AppError("feature_disabled", { message: FAMILY_AI_OFF });
  };
}
export type AiSwitch = ReturnType<typeof createAiSwitch>;
