import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULE_LIMITS } from "@hearth/contracts";
import { periodContaining } from "../src/budgets/budget-periods";
import { todayIso } from "../src/ledger/dates";
import { createPollingLoop } from "../src/workers/polling-loop";
import { eventually, financeAs, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

type Call = ReturnType<typeof financeAs>;
const current = periodContaining(todayIso(), 1);

async function applyAndWait(call: Call, id: string, body: Record<string, unknown> = {}) {
  const queued = (await call("rules.apply", { id, ...body })).data;
  return eventually(async () => {
    const run = (await call("ruleRuns.get", { id: queued.id })).data;
    expect(run.status).not.toBe("pending");
    return run;
  });
}

describe("review", () => {
  it("A: big (but allowed) rules silently switch off create-time rule application for the whole family", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 1000 } });
    const coffee = await call("categories.create", { category: { name: "Coffee" } });
    // The ordinary rule, made first (oldest first).
    await call("rules.create", {
      rule: { conditions: [{ condition_type: "transaction_name", operator: "like", value: "coffee" }], actions: [{ action_type: "set_transaction_category", value: coffee.id }] },
    });
    // Before: it works.
    const before = (await call("transactions.create", { transaction: { account_id: account.id, date: "2026-03-01", amount: 5, name: "Coffee one" } })).body;
    expect(before.category?.id).toBe(coffee.id);
    // Allowed by the contract: 50 compounds x 50 amount sub-conditions each.
    const sub = Array.from({ length: 50 }, () => ({ condition_type: "transaction_amount", operator: ">", value: "999999999" }));
    const conditions = Array.from({ length: 50 }, () => ({ condition_type: "compound", operator: "or", sub_conditions: sub }));
    for (let i = 0; i < 8; i++) await call("rules.create", { rule: { conditions, actions: [{ action_type: "exclude_transaction" }] } });
    const t0 = Date.now();
    const after = (await call("transactions.create", { transaction: { account_id: account.id, date: "2026-03-01", amount: 5, name: "Coffee two" } })).body;
    console.log("create took", Date.now() - t0, "ms");
    expect(after.category?.id).toBe(coffee.id);
  }, 120_000);

  it("B: parallel creates go past rulesPerFamily", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const rows = Array.from({ length: RULE_LIMITS.rulesPerFamily - 1 }, () => ({ familyId: actor.familyId }));
    await finance.db.rule.createMany({ data: rows });
    const body = { rule: { actions: [{ action_type: "exclude_transaction" }] } };
    await Promise.allSettled(Array.from({ length: 10 }, () => call("rules.create", body)));
    expect(await finance.db.rule.count({ where: { familyId: actor.familyId } })).toBeLessThanOrEqual(RULE_LIMITS.rulesPerFamily);
  }, 60_000);

  it("C: a budget whose converted spending passes 2^53 answers 500", async () => {
    const call = financeAs(finance, newActor());
    const euro = await call("accounts.create", {
      account: { name: "Euro", account_type: "depository", currency: "EUR", balance: "0", opening_balance_date: "2024-01-01" },
    });
    await call("exchangeRates.upsert", { from: "EUR", to: "USD", date: current.start, rate: "100000" });
    await call("transactions.create", { transaction: { account_id: euro.id, date: current.start, amount: "9999999999", name: "Big", nature: "expense" } });
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    const budget = await call("budgets.get", { id: body.id });
    expect(budget.actual_spending_cents).toBeGreaterThan(0);
  }, 60_000);

  it("D: a trade label set by hand is not locked: a rule run overwrites it", async () => {
    const call = financeAs(finance, newActor());
    const brokerage = await call("accounts.create", { account: { name: "Brokerage", account_type: "investment", balance: 100 } });
    const trade = (await call("trades.create", { trade: { account_id: brokerage.id, type: "dividend", date: "2026-03-03", amount: 25, ticker: "AAPL" } }))
      .body;
    await call("trades.update", { id: trade.id, trade: { investment_activity_label: "Interest" } });
    expect((await call("trades.get", { id: trade.id })).investment_activity_label).toBe("Interest");
    const rule = (
      await call("rules.create", {
        rule: {
          conditions: [{ condition_type: "transaction_account", operator: "=", value: brokerage.id }],
          actions: [{ action_type: "set_investment_activity_label", value: "Reinvestment" }],
        },
      })
    ).data;
    await applyAndWait(call, rule.id);
    expect((await call("trades.get", { id: trade.id })).investment_activity_label).toBe("Interest");
  }, 60_000);

  it("E: stop() waits for the whole queue, not the step in progress", async () => {
    let steps = 0;
    const log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as never;
    const loop = createPollingLoop({
      step: async () => {
        steps++;
        await new Promise((r) => setTimeout(r, 50));
        return steps < 100; // 100 queued items of 50 ms
      },
      pollMs: 10,
      log,
      name: "t",
    });
    loop.start();
    await new Promise((r) => setTimeout(r, 120));
    const t0 = Date.now();
    await loop.stop();
    console.log("stop took", Date.now() - t0, "ms, steps run", steps);
    expect(Date.now() - t0).toBeLessThan(200);
  }, 60_000);
});
