import pg from "pg";
import type { Stack } from "./stack";

export type AppDatabase = "gateway" | "finance" | "audit";

/** Reads each service's own database directly (npm start names them hearth_<app>). */
export function databases(stack: Stack) {
  const pools = new Map<AppDatabase, pg.Pool>();
  const pool = (app: AppDatabase) => {
    let found = pools.get(app);
    if (!found) {
      found = new pg.Pool({ connectionString: stack.cluster.url(`hearth_${app}`), max: 2 });
      found.on("error", () => {}); // an idle client cut by a PostgreSQL restart: the next query reconnects
      pools.set(app, found);
    }
    return found;
  };
  return {
    query: async <Row extends pg.QueryResultRow>(app: AppDatabase, text: string, values: unknown[] = []) => (await pool(app).query<Row>(text, values)).rows,
    close: async () => void (await Promise.all([...pools.values()].map((each) => each.end()))),
  };
}
export type Databases = ReturnType<typeof databases>;

export interface AuditCounts {
  /** Events the gateway wrote to its outbox for these families (what must reach the store). */
  produced: number;
  /** Rows in the audit store for those events. */
  storedRows: number;
  /** Distinct event ids among them. */
  storedDistinct: number;
  /** Produced events missing from the store. */
  lost: number;
  /** Rows beyond one per event id. */
  doubled: number;
  /** Produced events the relay gave up on (outbox_dead_letters). */
  deadLettered: number;
  /** Stored events per event type. */
  storedByType: Record<string, number>;
}

/** The audit pipeline's books for some families: the gateway's outbox against the audit service's store. */
export async function auditCounts(db: Databases, familyIds: string[]): Promise<AuditCounts> {
  const outbox = await db.query<{ event_id: string }>("gateway", "SELECT event_id FROM outbox_events WHERE message_key = ANY($1::text[])", [familyIds]);
  const [dead] = await db.query<{ count: string }>("gateway", "SELECT count(*) FROM outbox_dead_letters WHERE message_key = ANY($1::text[])", [familyIds]);
  const eventIds = outbox.map((row) => row.event_id);
  const [stored] = await db.query<{ rows: string; distinct: string; produced_found: string }>(
    "audit",
    `SELECT count(*) AS rows, count(DISTINCT event_id) AS distinct,
            count(DISTINCT event_id) FILTER (WHERE event_id = ANY($2::uuid[])) AS produced_found
       FROM audit_log_entries WHERE family_id = ANY($1::uuid[])`,
    [familyIds, eventIds],
  );
  const byType = await db.query<{ event_type: string; count: string }>(
    "audit",
    "SELECT event_type, count(*) FROM audit_log_entries WHERE family_id = ANY($1::uuid[]) GROUP BY event_type",
    [familyIds],
  );
  const storedRows = Number(stored?.rows ?? 0);
  const storedDistinct = Number(stored?.distinct ?? 0);
  return {
    produced: eventIds.length,
    storedRows,
    storedDistinct,
    lost: eventIds.length - Number(stored?.produced_found ?? 0),
    doubled: storedRows - storedDistinct,
    deadLettered: Number(dead?.count ?? 0),
    storedByType: Object.fromEntries(byType.map((row) => [row.event_type, Number(row.count)])),
  };
}
