const XID_SPACE = 2n ** 32n;
const HALF_XID_SPACE = 2n ** 31n;

/**
 * The transaction id below which every outbox row is final: `nextXid` (the snapshot's xmax, read
 * first: one past the latest completed xid, so at or below the next id to be assigned; every
 * xid below it had been assigned) lowered to the oldest transaction of this database still running
 * (`runningXids`, 32-bit xids from pg_stat_activity, read after it). A row whose txid is below
 * the horizon belongs to a transaction that had ended when the horizon was taken, so no row
 * with a lower id can still commit after it: the relay may read the rows below it in several
 * batches without a late commit slipping behind them (a BIGSERIAL id is assigned at insert
 * but visible at commit). A running xid at or after `nextXid` was assigned after the horizon's
 * reading and holds nothing back.
 */
export function publishHorizon(nextXid: bigint, runningXids: readonly string[]): bigint {
  let horizon = nextXid;
  const nextLow = nextXid % XID_SPACE;
  for (const text of runningXids) {
    // How far before nextXid this xid was assigned, modulo the 32-bit wraparound.
    const behind = (nextLow - BigInt(text) + XID_SPACE) % XID_SPACE;
    if (behind === 0n || behind >= HALF_XID_SPACE) continue;
    if (nextXid - behind < horizon) horizon = nextXid - behind;
  }
  return horizon;
}
