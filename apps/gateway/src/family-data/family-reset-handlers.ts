import { FAMILY_DATA_SERVICES, FamilyDataCountsSchema, SURE_RESET_COUNT_KEYS } from "@hearth/contracts";
import type { ServiceCall } from "@hearth/service-kit";
import type { WithIdentityEvents } from "../identity/audit/identity-events";
import { requireActor, type LocalHandler } from "../identity/local-handlers";
import type { MemberRepository } from "../identity/members/member-repository";
import type { UserRepository } from "../identity/users/user-repository";
import type { FamilyPurgeRepository } from "./family-purge-repository";

export type FamilyResetProcedure = "users.reset" | "users.resetStatus";

export interface FamilyResetDeps {
  purges: FamilyPurgeRepository;
  members: MemberRepository;
  users: UserRepository;
  withIdentityEvents: WithIdentityEvents;
  services: Record<(typeof FAMILY_DATA_SERVICES)[number], ServiceCall>;
  /** Starts the purge's job without waiting for the runner's poll. */
  onPurgeQueued: () => void;
}

/** Sure's users#reset and users#reset_status, over every service that keeps family data. */
export function createFamilyResetHandlers({ purges, members, users, withIdentityEvents, services, onPurgeQueued }: FamilyResetDeps) {
  /**
   * This instance's resets under way, by family: parallel resets of one family queue here, holding
   * no connection, rather than at the family's lock each holding one of the pool's ten (eight at
   * once left the last waiting past Prisma's 2 s for a connection: a 503, CI run s26b; and one
   * family's requests could starve every other family's).
   */
  const underWay = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(familyId: string, work: () => Promise<T>): Promise<T> {
    const mine = (underWay.get(familyId) ?? Promise.resolve()).catch(() => undefined).then(work);
    underWay.set(familyId, mine);
    void mine
      .catch(() => undefined)
      .finally(() => {
        if (underWay.get(familyId) === mine) underWay.delete(familyId);
      });
    return mine;
  }

  /** Queues the reset (or answers the one already queued) in the same transaction as its audit event. */
  const reset: LocalHandler<"users.reset"> = async ({ actor, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const purge = await oneAtATime(familyId, () =>
      withIdentityEvents(request, async (tx, record) => {
        // Under the family's lock too: other instances' resets of the family queue there.
        await members.lockFamily(tx, familyId);
        const open = await purges.openReset(familyId, tx);
        if (open) return open;
        record("user.data_reset", { familyId, user: await users.findRef(tx, userId), sessionId: sessionId ?? null });
        return purges.create(tx, { familyId, kind: "reset", requestedById: userId, services: FAMILY_DATA_SERVICES });
      }),
    );
    onPurgeQueued();
    return {
      message: "Account reset has been initiated",
      status: "queued" as const,
      job_id: purge.id,
      family_id: familyId,
      status_url: "/api/v1/users/reset/status",
    };
  };

  /**
   * Counts what every service still holds (a service that cannot answer fails the request, never
   * reads as zero). Complete only when all are zero and no reset of the family is still open:
   * Sure's counts can reach zero while a service's purge step is still removing what they do not count.
   */
  const resetStatus: LocalHandler<"users.resetStatus"> = async ({ actor, request }) => {
    const { familyId } = requireActor(actor);
    const [open, ...answers] = await Promise.all([
      purges.openReset(familyId),
      ...FAMILY_DATA_SERVICES.map(async (service) =>
        FamilyDataCountsSchema.parse(await services[service]("familyData.counts", "mutation", { familyId }, { requestId: request.requestId, actor: null })),
      ),
    ]);
    const counts: Record<string, number> = Object.fromEntries(SURE_RESET_COUNT_KEYS.map((key) => [key, 0]));
    for (const answer of answers) for (const [key, count] of Object.entries(answer.counts)) counts[key] = (counts[key] ?? 0) + count;
    const complete = open === null && Object.values(counts).every((count) => count === 0);
    return { status: complete ? "complete" : "data_remaining", family_id: familyId, reset_complete: complete, counts };
  };

  return { "users.reset": reset, "users.resetStatus": resetStatus } satisfies Record<FamilyResetProcedure, unknown>;
}
