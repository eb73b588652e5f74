import { AppError, authorize } from "@hearth/contracts";
import type { InternalHandlers } from "@hearth/service-kit";
import type { LedgerImportRepository } from "./ledger-import-repository";

/** finance's internal `ledger.import`: bulk history for the signed actor's family (developer tools). */
export function createLedgerImportHandlers(imports: LedgerImportRepository, options: { enabled: boolean }): Pick<InternalHandlers<"finance">, "ledger.import"> {
  return {
    "ledger.import": async ({ ctx, input }) => {
      // Off unless this finance instance was started for developer tools (npm start, tests).
      if (!options.enabled) throw new AppError("forbidden", { message: "The bulk import is off on this finance service (LEDGER_IMPORT=on)" });
      authorize(ctx.actor, { auth: "any", scope: "read_write" });
      const { finish, ...rows } = input;
      const written = await imports.write(ctx.actor.familyId, rows);
      if (finish) await imports.refreshStatistics();
      return written;
    },
  };
}
