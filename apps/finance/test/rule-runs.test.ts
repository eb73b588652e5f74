import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RuleRunCollectionSchema, RuleRunResponseSchema, type Actor } from "@hearth/contracts";
import { definitionOf, RULE_INCLUDE } from "../src/rules/rule-definition";
import { chunkBoundaries } from "../src/rules/rule-engine-queries";
import { ruleRunJob } from "../src/rules/rule-run-job";
import { createRuleRunProgressQueries, RULE_RUN_QUEUE } from "../src/rules/rule-run-progress-queries";
import {
  endJobConnection,
  eventually,
  expectAppError,
  financeAs,
  holdingTransaction,
  newActor,
  sideRunner,
  startFinance,
  type RunningFinance,
} from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance({ jobs: { pollMs: 50, heartbeatMs: 100 } });
});

/** Another instance's runner of rule runs, cutting runs in chunks of 50 entries, two at once. */
const ruleRunRunner = () =>
  sideRunner(finance, (log) => [ruleRunJob(finance.db, createRuleRunProgressQueries(finance.db), log, { chunkRows: 50, lanes: 2 })], {
    pollMs: 50,
    heartbeatMs: 100,
  });
afterAll(async () => finance?.stop());

type Call = ReturnType<typeof financeAs>;

async function newFamily(actor: Actor = newActor()) {
  const call = financeAs(finance, actor);
  const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 1000 } });
  const transaction = async (fields: Record<string, unknown>) =>
    (await call("transactions.create", { transaction: { account_id: account.id, date: "2026-03-01", amount: 10, name: "Txn", ...fields } })).body;
  return { actor, call, account, transaction };
}

const coffeeRule = async (call: Call, actions: unknown[] = [{ action_type: "set_transaction_name", value: "Coffee" }]) =>
  (
    await call("rules.create", {
      rule: { name: "Coffee cleanup", active: false, conditions: [{ condition_type: "transaction_name", operator: "like", value: "coffee" }], actions },
    })
  ).data;

const finished = (call: Call, id: string) =>
  eventually(async () => {
    const run = RuleRunResponseSchema.parse(await call("ruleRuns.get", { id })).data;
    expect(run.status).not.toBe("pending");
    return run;
  });

describe("rule runs: listing and filters (Sure's Api::V1::RuleRunsControllerTest)", () => {
  it("lists the family's runs newest first, shows one, filters, and keeps other families' out", async () => {
    const { call, actor } = await newFamily();
    const rule = await coffeeRule(call);
    const made = async (fields: Record<string, unknown>) =>
      finance.db.ruleRun.create({
        data: { familyId: actor.familyId, ruleId: rule.id, ruleName: rule.name, executionType: "manual", status: "success", ...fields },
      });
    // Sure's setup: a successful manual run and a failed scheduled one.
    const success = await made({ transactionsQueued: 10, transactionsProcessed: 10, transactionsModified: 4, executedAt: new Date("2024-01-15T12:00:00Z") });
    const failed = await made({
      executionType: "scheduled",
      status: "failed",
      transactionsQueued: 5,
      transactionsProcessed: 2,
      executedAt: new Date("2024-01-16T12:00:00Z"),
      errorMessage: "Rule failed",
    });
    const other = await newFamily();
    const otherRule = await coffeeRule(other.call);
    const theirs = (await other.call("rules.apply", { id: otherRule.id })).data;

    // "lists rule runs scoped to family rules"
    const listed = RuleRunCollectionSchema.parse(await call("ruleRuns.list", {}));
    expect(listed.data.map((run) => run.id)).toEqual([failed.id, success.id]);
    expect(listed.meta).toMatchObject({ total_count: 2, current_page: 1, per_page: 25 });
    // "shows a rule run"
    const shown = RuleRunResponseSchema.parse(await call("ruleRuns.get", { id: success.id })).data;
    expect(shown).toMatchObject({
      id: success.id,
      rule_id: rule.id,
      rule_name: "Coffee cleanup",
      execution_type: "manual",
      status: "success",
      transactions_queued: 10,
      transactions_processed: 10,
      transactions_modified: 4,
      pending_jobs_count: 0,
      executed_at: "2024-01-15T12:00:00.000Z",
      error_message: null,
      rule: { id: rule.id, name: "Coffee cleanup", resource_type: "transaction", active: false },
    });
    // "does not show another family's rule run"
    await expectAppError(call("ruleRuns.get", { id: theirs.id }), "record_not_found");
    await expectAppError(call("ruleRuns.get", { id: "not-a-uuid" }), "validation_failed");
    // "filters rule runs"
    const filtered = await call("ruleRuns.list", {
      rule_id: rule.id,
      status: "failed",
      execution_type: "scheduled",
      start_executed_at: "2024-01-16T00:00:00Z",
      end_executed_at: "2024-01-17T00:00:00Z",
    });
    expect(filtered.data.map((run: { id: string }) => run.id)).toEqual([failed.id]);
    expect((await call("ruleRuns.list", { end_executed_at: "2024-01-15T12:00:00Z" })).data.map((run: { id: string }) => run.id)).toEqual([success.id]);
    expect((await call("ruleRuns.list", { start_executed_at: "2024-01-16T13:00:00+01:00" })).data.map((run: { id: string }) => run.id)).toEqual([failed.id]);
    expect((await call("ruleRuns.list", { rule_id: otherRule.id })).data).toEqual([]);
    expect((await call("ruleRuns.list", { rule_id: "", status: "", start_executed_at: "" })).meta.total_count).toBe(2);
    // "clamps oversized per_page values to the documented maximum"
    expect((await call("ruleRuns.list", { per_page: 500 })).meta.per_page).toBe(100);
    // "rejects invalid filters", "rejects malformed rule_id filter", "rejects invalid timestamp filters"
    expect((await expectAppError(call("ruleRuns.list", { status: "unknown" }), "validation_failed")).errors).toEqual([
      "status must be one of: pending, success, failed",
    ]);
    expect((await expectAppError(call("ruleRuns.list", { rule_id: "not-a-uuid" }), "validation_failed")).errors).toEqual(["rule_id must be a valid UUID"]);
    expect((await expectAppError(call("ruleRuns.list", { start_executed_at: "not-a-date" }), "validation_failed")).errors).toEqual([
      "start_executed_at must be an ISO 8601 timestamp",
    ]);
    await expectAppError(call("ruleRuns.list", { execution_type: "automatic" }), "validation_failed");
    await expectAppError(call("ruleRuns.list", { end_executed_at: "0000-01-01T00:00:00Z" }), "validation_failed");
  });
});

describe("rule runs in the background", () => {
  it("apply answers a pending run at once; the worker applies it and records the counts", async () => {
    const { call, transaction } = await newFamily();
    for (const name of ["Coffee", "Blue Bottle COFFEE", "coffee beans", "Tea"]) await transaction({ name });
    const rule = await coffeeRule(call);
    const queued = RuleRunResponseSchema.parse(await call("rules.apply", { id: rule.id })).data;
    expect(queued).toMatchObject({
      status: "pending",
      execution_type: "manual",
      transactions_queued: 3,
      transactions_processed: 0,
      rule_name: "Coffee cleanup",
    });
    const run = await finished(call, queued.id);
    // "Coffee" already had the name: matched and processed, not modified.
    expect(run).toMatchObject({ status: "success", transactions_queued: 3, transactions_processed: 3, transactions_modified: 2, error_message: null });
    const names = (await call("transactions.list", {})).transactions.map((t: { name: string }) => t.name).sort();
    expect(names).toEqual(["Coffee", "Coffee", "Coffee", "Tea"]);
    // The rule is renamed later: the run keeps the name it ran under.
    await call("rules.update", { id: rule.id, rule: { name: "Renamed" } });
    expect((await call("ruleRuns.get", { id: run.id })).data).toMatchObject({ rule_name: "Coffee cleanup", rule: { name: "Renamed" } });
  });

  it("is one statement per action over the matched set, never one per transaction", async () => {
    const { call, actor, account } = await newFamily();
    const category = await call("categories.create", { category: { name: "Coffee" } });
    await finance.db.entry.createMany({
      data: Array.from({ length: 300 }, (_, index) => ({
        familyId: actor.familyId,
        accountId: account.id,
        kind: "transaction" as const,
        transactionKind: "standard" as const,
        date: new Date("2026-03-01T00:00:00Z"),
        name: `Coffee ${index}`,
        amountCents: 100n + BigInt(index),
        currency: "USD",
      })),
    });
    const rule = await coffeeRule(call, [
      { action_type: "set_transaction_category", value: category.id },
      { action_type: "set_transaction_name", value: "Coffee" },
      { action_type: "exclude_transaction" },
    ]);
    // Counts UPDATE statements on entries (a statement-level trigger fires once per statement, whatever it changes).
    await finance.db.$executeRawUnsafe(`CREATE TABLE rule_runs_test_statements (family_id uuid, rows int)`);
    await finance.db.$executeRawUnsafe(`CREATE FUNCTION rule_runs_test_count() RETURNS trigger AS $$
      BEGIN INSERT INTO rule_runs_test_statements SELECT family_id, count(*) FROM changed GROUP BY family_id; RETURN NULL; END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(
      `CREATE TRIGGER rule_runs_test_count AFTER UPDATE ON entries REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION rule_runs_test_count()`,
    );
    try {
      const run = await finished(call, (await call("rules.apply", { id: rule.id })).data.id);
      expect(run).toMatchObject({ status: "success", transactions_queued: 300, transactions_modified: 300 });
      const statements = await finance.db.$queryRawUnsafe<{ rows: number }[]>(
        `SELECT rows FROM rule_runs_test_statements WHERE family_id = '${actor.familyId}'::uuid ORDER BY rows`,
      );
      expect(statements.map((statement) => statement.rows)).toEqual([300, 300, 300]);
    } finally {
      await finance.db.$executeRawUnsafe(`DROP TRIGGER rule_runs_test_count ON entries`);
      await finance.db.$executeRawUnsafe(`DROP FUNCTION rule_runs_test_count`);
      await finance.db.$executeRawUnsafe(`DROP TABLE rule_runs_test_statements`);
    }
    expect(await finance.db.entry.count({ where: { accountId: account.id, categoryId: category.id, name: "Coffee", excluded: true } })).toBe(300);
  });

  it("touches only the family's own transactions", async () => {
    const alice = await newFamily();
    const bob = await newFamily();
    const bobs = await bob.transaction({ name: "Coffee" });
    await alice.transaction({ name: "Coffee" });
    const rule = await coffeeRule(alice.call, [{ action_type: "exclude_transaction" }]);
    expect(await finished(alice.call, (await alice.call("rules.apply", { id: rule.id })).data.id)).toMatchObject({ transactions_modified: 1 });
    expect((await bob.call("transactions.get", { id: bobs.id })).excluded).toBe(false);
  });

  it("a run that cannot apply its rule ends failed with the reason, changing nothing", async () => {
    const { call, transaction } = await newFamily();
    const coffee = await transaction({ name: "Coffee shop" });
    const rule = await coffeeRule(call);
    await finance.db.ruleCondition.updateMany({ where: { ruleId: rule.id }, data: { operator: "sounds_like" } });
    const run = await finished(call, (await call("rules.apply", { id: rule.id })).data.id);
    expect(run).toMatchObject({ status: "failed", error_message: "Unsupported operator: sounds_like for transaction_name", transactions_modified: 0 });
    expect((await call("transactions.get", { id: coffee.id })).name).toBe("Coffee shop");
    // Preview of such a rule is a 422 naming the problem, not a 500.
    const refused = await expectAppError(call("rules.preview", { id: rule.id }), "validation_failed");
    expect(refused.errors).toEqual(["Unsupported operator: sounds_like for transaction_name"]);
  });

  it("a run whose statement fails ends failed, and its earlier actions are undone with it", async () => {
    const { call, transaction } = await newFamily();
    const coffee = await transaction({ name: "Coffee shop" });
    const tag = await call("tags.create", { tag: { name: "Caffeine" } });
    const rule = await coffeeRule(call, [
      { action_type: "set_transaction_tags", value: tag.id },
      { action_type: "set_transaction_name", value: "Refused name" },
    ]);
    await finance.db.$executeRawUnsafe(`CREATE FUNCTION rule_runs_test_refuse() RETURNS trigger AS $$
      BEGIN IF NEW.name = 'Refused name' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(`CREATE TRIGGER rule_runs_test_refuse BEFORE UPDATE ON entries FOR EACH ROW EXECUTE FUNCTION rule_runs_test_refuse()`);
    try {
      const run = await finished(call, (await call("rules.apply", { id: rule.id })).data.id);
      expect(run).toMatchObject({ status: "failed", error_message: "An unexpected error occurred while applying the rule" });
    } finally {
      await finance.db.$executeRawUnsafe(`DROP TRIGGER rule_runs_test_refuse ON entries`);
      await finance.db.$executeRawUnsafe(`DROP FUNCTION rule_runs_test_refuse`);
    }
    expect(await call("transactions.get", { id: coffee.id })).toMatchObject({ name: "Coffee shop", tags: [] });
  });

  it("a pending run survives a restart: queued while no runner runs, it waits, and the next runner to start applies it", async () => {
    const { call, transaction } = await newFamily();
    const coffee = await transaction({ name: "Coffee" });
    const rule = await coffeeRule(call, [{ action_type: "exclude_transaction" }]);
    await finance.parts.jobs.stop();
    try {
      const queued = (await call("rules.apply", { id: rule.id })).data;
      expect(await finance.db.job.findFirstOrThrow({ where: { queue: RULE_RUN_QUEUE, subjectId: queued.id } })).toMatchObject({ status: "queued" });
      expect((await call("transactions.get", { id: coffee.id })).excluded).toBe(false);
      finance.parts.jobs.start();
      expect(await finished(call, queued.id)).toMatchObject({ status: "success", transactions_modified: 1 });
      expect((await call("transactions.get", { id: coffee.id })).excluded).toBe(true);
    } finally {
      finance.parts.jobs.start();
    }
  });

  it("a run left pending without a job (queued before the job runner, restored from a backup) is queued and applied by the next runner to start", async () => {
    const { actor, call } = await newFamily();
    const rule = await coffeeRule(call);
    const orphan = await finance.db.ruleRun.create({ data: { familyId: actor.familyId, ruleId: rule.id, executionType: "manual", status: "pending" } });
    const starting = ruleRunRunner();
    starting.start();
    try {
      expect(await finished(call, orphan.id)).toMatchObject({ status: "success" });
    } finally {
      await starting.stop();
    }
    expect(await finance.db.job.count({ where: { queue: RULE_RUN_QUEUE, subjectId: orphan.id } })).toBe(1);
  });

  it("two applies of one rule at once make one run (was: each could pass the check before the other wrote)", async () => {
    const { call } = await newFamily();
    const rule = await coffeeRule(call);
    await finance.parts.jobs.stop();
    try {
      const runs = await Promise.all(Array.from({ length: 6 }, () => call("rules.apply", { id: rule.id })));
      expect(new Set(runs.map((run) => run.data.id)).size).toBe(1);
      expect(await finance.db.job.count({ where: { queue: RULE_RUN_QUEUE, subjectId: runs[0]!.data.id } })).toBe(1);
    } finally {
      finance.parts.jobs.start();
    }
  });

  /** 300 "Coffee n" transactions a day apart, n = 0..299 (the newest last), and a rule renaming them all "Coffee". */
  async function chunkedFamily() {
    const family = await newFamily();
    await finance.db.entry.createMany({
      data: Array.from({ length: 300 }, (_, index) => ({
        familyId: family.actor.familyId,
        accountId: family.account.id,
        kind: "transaction" as const,
        transactionKind: "standard" as const,
        date: new Date(Date.UTC(2025, 0, 1 + index)),
        name: `Coffee ${index}`,
        amountCents: 100n + BigInt(index),
        currency: "USD",
      })),
    });
    return { ...family, rule: await coffeeRule(family.call) };
  }

  /** The run ended a success over all 300, each renamed once, and they all are. */
  async function expectAllRenamed(call: Call, runId: string, familyId: string) {
    expect((await call("ruleRuns.get", { id: runId })).data).toMatchObject({
      status: "success",
      transactions_queued: 300,
      transactions_processed: 300,
      transactions_modified: 300,
      pending_jobs_count: 0,
      error_message: null,
    });
    expect(await finance.db.entry.count({ where: { familyId, name: "Coffee" } })).toBe(300);
  }

  /** Makes every UPDATE of the entry `name` wait, before it changes the row, for a lock the returned holder keeps until released. */
  async function stallUpdatesOf(name: string) {
    await finance.db.$executeRawUnsafe(`CREATE FUNCTION rule_runs_test_stall() RETURNS trigger AS $$
      BEGIN IF OLD.name = '${name}' THEN PERFORM pg_advisory_xact_lock_shared(4242); END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(`CREATE TRIGGER rule_runs_test_stall BEFORE UPDATE ON entries FOR EACH ROW EXECUTE FUNCTION rule_runs_test_stall()`);
    const holder = await holdingTransaction(finance.db, (tx) => tx.$executeRaw`SELECT pg_advisory_xact_lock(4242)`);
    return {
      /** How many statements wait at the stall now. */
      waiting: async () => {
        const [row] = await finance.db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`;
        return row!.n;
      },
      release: () => holder.release(),
      drop: async () => {
        await finance.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS rule_runs_test_stall ON entries`);
        await finance.db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS rule_runs_test_stall`);
      },
    };
  }

  it("a large run is applied in chunks of the (date, id) order, two at once, each one statement per action, and counts add up exactly", async () => {
    const { actor, call, rule } = await chunkedFamily();
    await finance.parts.jobs.stop();
    await finance.db.$executeRawUnsafe(`CREATE TABLE rule_runs_test_chunks (family_id uuid, rows int, first_date date, last_date date, running int)`);
    // Each statement lingers 0.2 s and notes how many of the run's UPDATEs are under way with it (itself included).
    await finance.db.$executeRawUnsafe(`CREATE FUNCTION rule_runs_test_chunk() RETURNS trigger AS $$
      BEGIN
        PERFORM pg_sleep(0.2);
        INSERT INTO rule_runs_test_chunks
          SELECT family_id, count(*), min(date), max(date),
                 (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE '%UPDATE entries e SET name%')
            FROM changed GROUP BY family_id;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(
      `CREATE TRIGGER rule_runs_test_chunk AFTER UPDATE ON entries REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION rule_runs_test_chunk()`,
    );
    const runner = ruleRunRunner();
    try {
      await call("rules.apply", { id: rule.id });
      await runner.drain(RULE_RUN_QUEUE);
      const statements = await finance.db.$queryRawUnsafe<{ rows: number; first_date: Date; last_date: Date; running: bigint }[]>(
        `SELECT rows, first_date, last_date, running FROM rule_runs_test_chunks WHERE family_id = '${actor.familyId}'::uuid ORDER BY first_date`,
      );
      // Two lanes: two chunks were under way together, never three.
      expect(Math.max(...statements.map((statement) => Number(statement.running)))).toBe(2);
      // 300 matches in 50s, a multiple of the two lanes: six statements of 50 consecutive days each.
      expect(statements.map((statement) => statement.rows)).toEqual([50, 50, 50, 50, 50, 50]);
      for (const [index, statement] of statements.entries()) {
        expect(statement.first_date).toEqual(new Date(Date.UTC(2025, 0, 1 + index * 50)));
        expect(statement.last_date).toEqual(new Date(Date.UTC(2025, 0, 50 + index * 50)));
      }
    } finally {
      await runner.stop();
      await finance.db.$executeRawUnsafe(`DROP TRIGGER rule_runs_test_chunk ON entries`);
      await finance.db.$executeRawUnsafe(`DROP FUNCTION rule_runs_test_chunk`);
      await finance.db.$executeRawUnsafe(`DROP TABLE rule_runs_test_chunks`);
      finance.parts.jobs.start();
    }
    await expectAllRenamed(call, (await call("ruleRuns.list", { rule_id: rule.id })).data[0].id, actor.familyId);
  });

  it("cuts a run of 20,000 matches into chunks in one pass over them (was: the count read again per match, 15.9 s for 14,000)", async () => {
    const family = await newFamily();
    await finance.db.entry.createMany({
      data: Array.from({ length: 20_000 }, (_, index) => ({
        familyId: family.actor.familyId,
        accountId: family.account.id,
        kind: "transaction" as const,
        transactionKind: "standard" as const,
        date: new Date(Date.UTC(2024, 0, 1 + (index % 365))),
        name: `Coffee ${index}`,
        amountCents: 100n,
        currency: "USD",
      })),
    });
    const rule = await coffeeRule(family.call);
    const found = await finance.db.rule.findFirstOrThrow({ where: { id: rule.id }, include: RULE_INCLUDE });
    // Quadratic, it would take about half a minute: the statement is stopped long before.
    const { matched, ends } = await finance.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 5000");
      return chunkBoundaries(tx, definitionOf(found), { ignoreLocks: false }, { chunkRows: 5_000, lanes: 2 });
    });
    expect(matched).toBe(20_000);
    expect(ends).toHaveLength(4);
  });

  it("a chunk that fails ends the run failed, not retried, and keeps the chunks done before it", async () => {
    const { actor, call, rule } = await chunkedFamily();
    await finance.parts.jobs.stop();
    // The newest entry (in the last chunk) cannot be renamed.
    await finance.db.$executeRawUnsafe(`CREATE FUNCTION rule_runs_test_refuse_last() RETURNS trigger AS $$
      BEGIN IF OLD.name = 'Coffee 299' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(
      `CREATE TRIGGER rule_runs_test_refuse_last BEFORE UPDATE ON entries FOR EACH ROW EXECUTE FUNCTION rule_runs_test_refuse_last()`,
    );
    const runner = ruleRunRunner();
    try {
      const runId = (await call("rules.apply", { id: rule.id })).data.id;
      await runner.drain(RULE_RUN_QUEUE);
      expect((await call("ruleRuns.get", { id: runId })).data).toMatchObject({
        status: "failed",
        error_message: "An unexpected error occurred while applying the rule",
        transactions_queued: 300,
        transactions_processed: 250,
        transactions_modified: 250,
        pending_jobs_count: 0,
      });
      expect(await finance.db.entry.count({ where: { familyId: actor.familyId, name: "Coffee" } })).toBe(250);
      expect(await finance.db.job.findFirstOrThrow({ where: { queue: RULE_RUN_QUEUE, subjectId: runId } })).toMatchObject({ status: "failed", attempts: 1 });
    } finally {
      await runner.stop();
      await finance.db.$executeRawUnsafe(`DROP TRIGGER rule_runs_test_refuse_last ON entries`);
      await finance.db.$executeRawUnsafe(`DROP FUNCTION rule_runs_test_refuse_last`);
      finance.parts.jobs.start();
    }
  });

  it("a run whose worker died mid-chunk is never taken while that worker lives, is taken over at once when it dies, and counts every change once", async () => {
    const { actor, call, rule } = await chunkedFamily();
    await finance.parts.jobs.stop();
    // The last chunk's UPDATE waits at the stall; the five before it commit.
    const stall = await stallUpdatesOf("Coffee 299");
    const dying = ruleRunRunner();
    const other = ruleRunRunner();
    try {
      const runId = (await call("rules.apply", { id: rule.id })).data.id;
      dying.start();
      await eventually(async () => {
        expect((await finance.db.ruleRun.findUniqueOrThrow({ where: { id: runId } })).transactionsProcessed).toBe(250);
        expect(await stall.waiting()).toBe(1);
      });
      // Another instance polls meanwhile: a live worker's job is never its.
      other.start();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const job = await finance.db.job.findFirstOrThrow({ where: { queue: RULE_RUN_QUEUE, subjectId: runId } });
      expect(job).toMatchObject({ status: "running", attempts: 1 });

      // The worker's process dies (its job connection ends): the other instance takes the run over at once.
      const endedAt = await endJobConnection(finance, job.id);
      const taken = await eventually(async () => {
        const found = await finance.db.job.findFirstOrThrow({ where: { id: job.id } });
        if (found.attempts < 2) throw new Error("not taken over yet");
        return found;
      });
      expect(taken.startedAt!.getTime() - endedAt.getTime(), "taken over at once, not after a lease").toBeLessThan(2_000);
      // The stall lets go: the dead worker's last chunk is rolled back (its fence fails), the new one's stands.
      await stall.release();
      await eventually(async () => expect((await finance.db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("succeeded"));
      await expectAllRenamed(call, runId, actor.familyId);
    } finally {
      await stall.release().catch(() => undefined);
      await Promise.all([dying.stop(), other.stop()]);
      await stall.drop();
      finance.parts.jobs.start();
    }
  });

  it("deleting a rule whose run is being applied does not wait for the run, and the run's chunk under way is undone", async () => {
    const { actor, call, rule } = await chunkedFamily();
    await finance.parts.jobs.stop();
    const stall = await stallUpdatesOf("Coffee 0");
    const runner = ruleRunRunner();
    try {
      const queued = (await call("rules.apply", { id: rule.id })).data;
      runner.start();
      await eventually(async () => expect(await stall.waiting()).toBe(1));
      await call("rules.delete", { id: rule.id });
      await expectAppError(call("ruleRuns.get", { id: queued.id }), "record_not_found");
      await stall.release();
      await eventually(async () =>
        expect(await finance.db.job.findFirstOrThrow({ where: { queue: RULE_RUN_QUEUE, subjectId: queued.id } })).toMatchObject({
          status: "failed",
          lastError: "The rule was deleted",
        }),
      );
      // The chunk that waited was rolled back (the other lane's, committed before the delete, stay).
      expect(await finance.db.entry.count({ where: { familyId: actor.familyId, name: "Coffee 0" } })).toBe(1);
    } finally {
      await stall.release().catch(() => undefined);
      await runner.stop();
      await stall.drop();
      finance.parts.jobs.start();
    }
  });

  it("applying a rule whose run still waits answers that run; a family has at most 10 runs waiting (was: unbounded, ahead of other families)", async () => {
    const { call } = await newFamily();
    const rules = await Promise.all(Array.from({ length: 11 }, () => coffeeRule(call)));
    await finance.parts.jobs.stop();
    try {
      const first = (await call("rules.apply", { id: rules[0].id })).data;
      expect((await call("rules.apply", { id: rules[0].id })).data.id).toBe(first.id);
      // Another lock setting is another run.
      expect((await call("rules.apply", { id: rules[0].id, ignore_attribute_locks: true })).data.id).not.toBe(first.id);
      for (const rule of rules.slice(1, 9)) await call("rules.apply", { id: rule.id });
      const error = await expectAppError(call("rules.apply", { id: rules[10].id }), "validation_failed");
      expect(error.message).toContain("At most 10 rule runs may wait at once");
      // Another family is not held back by this one's queue.
      const other = await newFamily();
      expect((await other.call("rules.apply", { id: (await coffeeRule(other.call)).id })).data.status).toBe("pending");
    } finally {
      finance.parts.jobs.start();
    }
  });

  it("a rule deleted with a run still queued takes the run with it", async () => {
    const { call } = await newFamily();
    const rule = await coffeeRule(call);
    await finance.parts.jobs.stop();
    try {
      const queued = (await call("rules.apply", { id: rule.id, ignore_attribute_locks: true })).data;
      expect((await finance.db.ruleRun.findUniqueOrThrow({ where: { id: queued.id } })).ignoreAttributeLocks).toBe(true);
      await call("rules.delete", { id: rule.id });
      await expectAppError(call("ruleRuns.get", { id: queued.id }), "record_not_found");
    } finally {
      finance.parts.jobs.start();
    }
  });
});
