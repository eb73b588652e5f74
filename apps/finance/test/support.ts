import { routes, type Actor, type RouteDef } from "@hearth/contracts";
import { contextOf, startServiceUnderTest, type ServiceBasics, type ServiceUnderTest } from "@hearth/test-kit";
import { createFinanceService, type FinanceDeps } from "../src/app";
import { MIGRATIONS_DIR, createFinanceDb, type FinanceDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningFinance = ServiceUnderTest<FinanceDb, ReturnType<typeof createFinanceService>>;

/** How the kit builds finance. */
export const financeUnderTest = { service: "finance", migrationsDir: MIGRATIONS_DIR, createDb: createFinanceDb, create: createFinanceService } as const;

/** What the kit's shared health and internal-auth suites call on finance. */
export const financeBasics: ServiceBasics<FinanceDb, RunningFinance["parts"]> = {
  ...financeUnderTest,
  procedures: [
    { procedure: "tags.list", input: () => ({}), answer: { toEqual: [] } },
    {
      procedure: "tags.create",
      input: () => ({ tag: { name: "Nope" } }),
      answer: { toMatchObject: { name: "Nope" } },
      refusesReadOnlyKey: "insufficient_scope",
    },
  ],
  countRows: (db) => db.tag.count(),
};

/** The finance service on a fresh, migrated database, listening on a free port. */
export function startFinance(
  options: Pick<FinanceDeps, "ledgerImport" | "syncLease" | "importWorker" | "familyExportWorker" | "familyPurge"> = {},
): Promise<RunningFinance> {
  return startServiceUnderTest({ ...financeUnderTest, create: (deps) => createFinanceService({ ...deps, ...options }) });
}

/** Calls any finance procedure as `actor`, as the gateway would (GET routes are queries). */
export function financeAs(finance: RunningFinance, actor: Actor) {
  return <K extends keyof typeof routes>(procedure: K, input: unknown = {}): Promise<any> => {
    const route = routes[procedure] as RouteDef;
    return finance.call(procedure, route.method === "GET" ? "query" : "mutation", input, contextOf(actor));
  };
}

/** Waits until the background worker has run every queued sync (balances are then current). */
export async function settled(finance: RunningFinance, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await finance.db.sync.count({ where: { status: { in: ["pending", "syncing"] } } });
    const deleting = await finance.db.account.count({ where: { status: "pending_deletion" } });
    if (open === 0 && deleting === 0) return;
    if (Date.now() > deadline) throw new Error(`syncs still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls `check` until it stops throwing, or fails with its last error. */
export async function eventually<T>(check: () => Promise<T>, { timeoutMs = 20_000, intervalMs = 25 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** The account's stored balance rows without their ids and timestamps (what a recompute must reproduce). */
export async function storedBalances(finance: RunningFinance, accountId: string) {
  const rows = await finance.db.balance.findMany({ where: { accountId }, orderBy: [{ date: "asc" }, { currency: "asc" }] });
  return rows.map(({ id: _id, createdAt: _c, updatedAt: _u, ...row }) => row);
}
