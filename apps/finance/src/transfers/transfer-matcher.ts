import { matchedOutflowKindOf } from "./transfer-kinds";
import type { ProposedPair, TransferMatchQueries } from "./transfer-match-queries";

/** How far apart (in days) the two sides of a transfer may be dated, as Sure matches them. */
export const MATCH_WINDOW_DAYS = 4;

/** Pairs recorded per transaction: a family's first sync may propose tens of thousands. */
const PROPOSALS_PER_TRANSACTION = 1_000;

/**
 * Proposes pending transfers (Sure's auto_match_transfers!): the candidates of
 * transfer-match-queries.ts, closest dates first; each transaction joins one transfer at most.
 * Limited to pairs touching `accountId` dated from `since` when given.
 */
export function createTransferMatcher(queries: TransferMatchQueries) {
  return {
    async match(familyId: string, scope: { accountId?: string; since?: string | null } = {}): Promise<number> {
      const candidates = await queries.candidates(familyId, { accountId: scope.accountId ?? null, since: scope.since ?? null, windowDays: MATCH_WINDOW_DAYS });
      const used = new Set<string>();
      const chosen: ProposedPair[] = [];
      for (const pair of candidates) {
        if (used.has(pair.outflow_id) || used.has(pair.inflow_id)) continue;
        used.add(pair.outflow_id);
        used.add(pair.inflow_id);
        chosen.push({ outflowId: pair.outflow_id, inflowId: pair.inflow_id, outflowKind: matchedOutflowKindOf(pair.inflow_account_type) });
      }
      let proposed = 0;
      for (let at = 0; at < chosen.length; at += PROPOSALS_PER_TRANSACTION) {
        proposed += await queries.proposeAll(familyId, chosen.slice(at, at + PROPOSALS_PER_TRANSACTION));
      }
      return proposed;
    },
  };
}
export type TransferMatcher = ReturnType<typeof createTransferMatcher>;
