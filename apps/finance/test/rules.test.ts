import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RuleCollectionSchema, RulePreviewSchema, RuleResponseSchema, TransactionSchema, type Actor } from "@hearth/contracts";
import { eventually, expectAppError, financeAs, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

type Call = ReturnType<typeof financeAs>;
type Condition = { condition_type: string; operator: string; value?: unknown; sub_conditions?: Condition[] };

/** A family with a checking account. */
async function newFamily(actor: Actor = newActor()) {
  const call = financeAs(finance, actor);
  const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 1000 } });
  const transaction = async (fields: Record<string, unknown>, accountId: string = account.id) =>
    TransactionSchema.parse(
      (await call("transactions.create", { transaction: { account_id: accountId, date: "2026-03-01", amount: 10, name: "Txn", ...fields } })).body,
    );
  return { actor, call, account, transaction };
}

/**
 * Sure's Rule::ConditionTest fixture: five transactions (1 and 4 at Whole Foods), 2 an income,
 * 4 and 5 a year old. Amounts as Sure signs them: positive is an expense.
 */
async function sureFixture() {
  const family = await newFamily();
  const wholeFoods = await family.call("merchants.create", { merchant: { name: "Whole Foods" } });
  const txn1 = await family.transaction({ date: "2026-03-01", amount: 100, name: "Rule test transaction1", merchant_id: wholeFoods.id });
  const txn2 = await family.transaction({ date: "2026-03-01", amount: -200, name: "Rule test transaction2" });
  const txn3 = await family.transaction({ date: "2026-02-28", amount: 50, name: "Rule test transaction3" });
  const txn4 = await family.transaction({ date: "2025-03-01", amount: 10, name: "Rule test transaction4", merchant_id: wholeFoods.id });
  const txn5 = await family.transaction({ date: "2025-03-01", amount: 1000, name: "Rule test transaction5" });
  return { ...family, wholeFoods, txn1, txn2, txn3, txn4, txn5 };
}

/**
 * The names of the transactions a rule with these conditions matches, read with a preview (which
 * changes nothing) of an inactive rule that would exclude them (none is excluded yet).
 */
async function matchedNames(call: Call, conditions: Condition[], rule: Record<string, unknown> = {}): Promise<string[]> {
  const created = RuleResponseSchema.parse(
    await call("rules.create", { rule: { active: false, conditions, actions: [{ action_type: "exclude_transaction" }], ...rule } }),
  ).data;
  const preview = RulePreviewSchema.parse(await call("rules.preview", { id: created.id })).data;
  await call("rules.delete", { id: created.id });
  expect(preview.transactions_to_change).toBe(preview.transactions_matched);
  return preview.transactions.map((transaction) => transaction.name).sort();
}

const names = (...numbers: number[]) => numbers.map((n) => `Rule test transaction${n}`);

describe("rule conditions, against real rows", () => {
  it("transaction_name: = is exact, like is a case-insensitive contains, is_null never holds (a name is required)", async () => {
    const { call } = await sureFixture();
    // Sure: Rule::ConditionTest "applies transaction_name condition"
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "=", value: "Rule test transaction1" }])).toEqual(names(1));
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "=", value: "rule test transaction1" }])).toEqual([]);
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "like", value: "TEST TRANSACTION" }])).toEqual(names(1, 2, 3, 4, 5));
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "is_null" }])).toEqual([]);
  });

  it("transaction_name compares with whitespace normalised on both sides", async () => {
    // Sure: RuleTest "transaction name rules normalize whitespace in comparisons"
    const { call, transaction } = await newFamily();
    await transaction({ name: "Company  -   Mobile" });
    await transaction({ name: "Company-Mobile" });
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "like", value: "Company - Mobile" }])).toEqual(["Company  -   Mobile"]);
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "=", value: "  Company -\tMobile " }])).toEqual(["Company  -   Mobile"]);
  });

  it("like takes the value's % and _ literally", async () => {
    const { call, transaction } = await newFamily();
    for (const name of ["100% pure", "1000 pure", "a_b", "axb", "back\\slash", "backslash"]) await transaction({ name });
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "like", value: "100%" }])).toEqual(["100% pure"]);
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "like", value: "a_b" }])).toEqual(["a_b"]);
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "like", value: "k\\s" }])).toEqual(["back\\slash"]);
    expect(await matchedNames(call, [{ condition_type: "transaction_name", operator: "like", value: "%" }])).toEqual(["100% pure"]);
  });

  it("transaction_amount compares the absolute amount with every operator", async () => {
    const { call, transaction } = await sureFixture();
    const amount = (operator: string, value: unknown) => matchedNames(call, [{ condition_type: "transaction_amount", operator, value }]);
    // Sure: Rule::ConditionTest "applies transaction_amount condition using absolute values" (100, -200 and 1000 are above 50)
    expect(await amount(">", "50")).toEqual(names(1, 2, 5));
    expect(await amount(">=", 50)).toEqual(names(1, 2, 3, 5));
    expect(await amount("<", "50")).toEqual(names(4));
    expect(await amount("<=", "50.00")).toEqual(names(3, 4));
    expect(await amount("=", "200")).toEqual(names(2));
    expect(await amount(">", "49.99")).toEqual(names(1, 2, 3, 5));
    // Sure: Rule::ConditionTest "applies transaction_amount not equal operator using absolute values"
    await transaction({ amount: -100, name: "Rule test transaction6" });
    expect(await amount("!=", "100")).toEqual(names(2, 3, 4, 5));
  });

  it("transaction_amount reads the value in each entry's currency (a yen has no minor unit)", async () => {
    const { call, transaction } = await newFamily();
    const yen = await call("accounts.create", { account: { name: "Yen", account_type: "depository", currency: "JPY" } });
    await transaction({ amount: 500, name: "Yen 500" }, yen.id);
    await transaction({ amount: 5, name: "Dollars 5" });
    await transaction({ amount: "5.01", name: "Dollars 5.01" });
    expect(await matchedNames(call, [{ condition_type: "transaction_amount", operator: "=", value: "500" }])).toEqual(["Yen 500"]);
    expect(await matchedNames(call, [{ condition_type: "transaction_amount", operator: "=", value: "5" }])).toEqual(["Dollars 5"]);
    expect(await matchedNames(call, [{ condition_type: "transaction_amount", operator: ">", value: "5.001" }])).toEqual(["Dollars 5.01", "Yen 500"]);
  });

  it("transaction_type: income and expense leave transfers out, transfer takes every transfer kind", async () => {
    const { call, account } = await sureFixture();
    const savings = await call("accounts.create", { account: { name: "Savings", account_type: "depository" } });
    await call("transfers.create", { transfer: { from_account_id: account.id, to_account_id: savings.id, amount: 500, date: "2026-03-01", name: "Move" } });
    const type = (value: string) => matchedNames(call, [{ condition_type: "transaction_type", operator: "=", value }]);
    // Sure: Rule::ConditionTest "applies transaction_type condition for income" / "... for expense" / "... for transfer",
    // "transaction_type expense excludes transfers", "transaction_type income excludes transfers"
    expect(await type("income")).toEqual(names(2));
    expect(await type("expense")).toEqual(names(1, 3, 4, 5));
    expect(await type("transfer")).toEqual(["Move", "Move"]);
  });

  it("transaction_type transfer includes an investment contribution, which is neither income nor expense", async () => {
    // Sure: Rule::ConditionTest "transaction_type transfer includes investment_contribution", "... income excludes investment_contribution"
    const { call, account } = await newFamily();
    const brokerage = await call("accounts.create", { account: { name: "Brokerage", account_type: "investment" } });
    await call("transfers.create", { transfer: { from_account_id: account.id, to_account_id: brokerage.id, amount: 1000, date: "2026-03-01", name: "401k" } });
    const kinds = await finance.db.entry.findMany({ where: { accountId: account.id, kind: "transaction" }, select: { transactionKind: true } });
    expect(kinds.map((row) => row.transactionKind)).toEqual(["investment_contribution"]);
    const type = (value: string) => matchedNames(call, [{ condition_type: "transaction_type", operator: "=", value }]);
    expect(await type("transfer")).toEqual(["401k", "401k"]);
    expect(await type("expense")).toEqual([]);
    expect(await type("income")).toEqual([]);
  });

  it("transaction_merchant, transaction_category and transaction_account: = and is_null", async () => {
    const { call, wholeFoods, txn1, account, transaction } = await sureFixture();
    // Sure: Rule::ConditionTest "applies transaction_merchant condition", "applies is_null condition for transaction_merchant"
    expect(await matchedNames(call, [{ condition_type: "transaction_merchant", operator: "=", value: wholeFoods.id }])).toEqual(names(1, 4));
    expect(await matchedNames(call, [{ condition_type: "transaction_merchant", operator: "is_null" }])).toEqual(names(2, 3, 5));
    // Sure: "applies transaction_category condition", "applies is_null condition for transaction_category"
    const grocery = await call("categories.create", { category: { name: "Grocery" } });
    await call("transactions.update", { id: txn1.id, transaction: { category_id: grocery.id } });
    expect(await matchedNames(call, [{ condition_type: "transaction_category", operator: "=", value: grocery.id }])).toEqual(names(1));
    expect(await matchedNames(call, [{ condition_type: "transaction_category", operator: "is_null" }])).toEqual(names(2, 3, 4, 5));
    // Sure: RuleTest "rule matching on transaction account"
    const other = await call("accounts.create", { account: { name: "Other", account_type: "depository" } });
    await transaction({ name: "Elsewhere" }, other.id);
    expect(await matchedNames(call, [{ condition_type: "transaction_account", operator: "=", value: other.id }])).toEqual(["Elsewhere"]);
    expect((await matchedNames(call, [{ condition_type: "transaction_account", operator: "=", value: account.id }])).length).toBe(5);
    expect(await matchedNames(call, [{ condition_type: "transaction_account", operator: "is_null" }])).toEqual([]);
  });

  it("transaction_tag: = matches a tagged transaction once, is_null the untagged, two ANDed tags need both", async () => {
    const { call, txn1, txn2 } = await sureFixture();
    const reimbursable = await call("tags.create", { tag: { name: "Reimbursable" } });
    const business = await call("tags.create", { tag: { name: "Business" } });
    await call("transactions.update", { id: txn1.id, transaction: { tag_ids: [reimbursable.id, business.id] } });
    await call("transactions.update", { id: txn2.id, transaction: { tag_ids: [reimbursable.id] } });
    const tag = (id: string) => ({ condition_type: "transaction_tag", operator: "=", value: id });
    // Sure: Rule::ConditionTest "applies transaction_tag condition", "applies is_null condition for transaction_tag"
    expect(await matchedNames(call, [tag(business.id)])).toEqual(names(1));
    expect(await matchedNames(call, [{ condition_type: "transaction_tag", operator: "is_null" }])).toEqual(names(3, 4, 5));
    // Sure: "compound AND of two transaction_tag conditions matches transactions having both tags"
    expect(await matchedNames(call, [{ condition_type: "compound", operator: "and", sub_conditions: [tag(reimbursable.id), tag(business.id)] }])).toEqual(
      names(1),
    );
    // Sure: "compound OR of transaction_tag conditions does not duplicate multi-tagged transactions"
    expect(await matchedNames(call, [{ condition_type: "compound", operator: "or", sub_conditions: [tag(reimbursable.id), tag(business.id)] }])).toEqual(
      names(1, 2),
    );
  });

  it("transaction_notes: like and is_null; transaction_details: no provider details are kept, so only is_null holds", async () => {
    const { call, txn3 } = await sureFixture();
    await call("transactions.update", { id: txn3.id, transaction: { notes: "Important: This is a business expense" } });
    // Sure: Rule::ConditionTest "applies transaction_notes condition", "applies transaction_notes condition with is_null operator"
    expect(await matchedNames(call, [{ condition_type: "transaction_notes", operator: "like", value: "BUSINESS expense" }])).toEqual(names(3));
    expect(await matchedNames(call, [{ condition_type: "transaction_notes", operator: "=", value: "Important: This is a business expense" }])).toEqual(
      names(3),
    );
    expect(await matchedNames(call, [{ condition_type: "transaction_notes", operator: "is_null" }])).toEqual(names(1, 2, 4, 5));
    // Sure: "applies transaction_details condition with is_null operator" (transactions without extra details match)
    expect(await matchedNames(call, [{ condition_type: "transaction_details", operator: "is_null" }])).toEqual(names(1, 2, 3, 4, 5));
    expect(await matchedNames(call, [{ condition_type: "transaction_details", operator: "like", value: "Rule" }])).toEqual([]);
    expect(await matchedNames(call, [{ condition_type: "transaction_details", operator: "=", value: "Rule test transaction1" }])).toEqual([]);
  });

  it("compound and/or one level deep, top-level conditions ANDed, an empty compound matching everything", async () => {
    const { call, wholeFoods } = await sureFixture();
    const merchant = { condition_type: "transaction_merchant", operator: "=", value: wholeFoods.id };
    const small = { condition_type: "transaction_amount", operator: "<", value: "50" };
    // Sure: Rule::ConditionTest "applies compound and condition", "applies compound or condition"
    expect(await matchedNames(call, [{ condition_type: "compound", operator: "and", sub_conditions: [merchant, small] }])).toEqual(names(4));
    expect(await matchedNames(call, [{ condition_type: "compound", operator: "or", sub_conditions: [merchant, small] }])).toEqual(names(1, 4));
    // Top level is AND: Whole Foods and above 60 (Sure: RuleTest "compound rule")
    expect(await matchedNames(call, [merchant, { condition_type: "transaction_amount", operator: ">", value: 60 }])).toEqual(names(1));
    // An OR inside an AND: (merchant or small) and an income
    expect(
      await matchedNames(call, [
        { condition_type: "compound", operator: "or", sub_conditions: [merchant, { condition_type: "transaction_type", operator: "=", value: "income" }] },
        { condition_type: "transaction_amount", operator: ">", value: 60 },
      ]),
    ).toEqual(names(1, 2));
    expect(await matchedNames(call, [{ condition_type: "compound", operator: "or", sub_conditions: [] }])).toEqual(names(1, 2, 3, 4, 5));
    expect(await matchedNames(call, [])).toEqual(names(1, 2, 3, 4, 5));
  });

  it("effective_date limits matches to entries on or after it", async () => {
    const { call } = await sureFixture();
    expect(await matchedNames(call, [], { effective_date: "2026-02-28" })).toEqual(names(1, 2, 3));
    expect(await matchedNames(call, [], { effective_date: "2026-03-01" })).toEqual(names(1, 2));
    expect(await matchedNames(call, [], { effective_date: "2026-03-02" })).toEqual([]);
    expect(await matchedNames(call, [], { effective_date: null })).toEqual(names(1, 2, 3, 4, 5));
  });

  it("matches only the family's transactions in visible accounts", async () => {
    const { call, transaction } = await newFamily();
    await transaction({ name: "Mine" });
    const other = await newFamily();
    await other.transaction({ name: "Theirs" });
    const disabled = await call("accounts.create", { account: { name: "Old", account_type: "depository" } });
    await transaction({ name: "In a disabled account" }, disabled.id);
    await call("accounts.update", { id: disabled.id, account: { status: "disabled" } });
    expect(await matchedNames(call, [])).toEqual(["Mine"]);
  });
});

describe("rules CRUD", () => {
  it("creates, shows, lists with Sure's meta and filters, updates and deletes a rule", async () => {
    const { call } = await newFamily();
    const created = RuleResponseSchema.parse(
      await call("rules.create", {
        rule: {
          name: "Coffee cleanup",
          effective_date: "2024-01-01",
          conditions: [
            { condition_type: "transaction_name", operator: "like", value: "coffee" },
            {
              condition_type: "compound",
              operator: "or",
              sub_conditions: [
                { condition_type: "transaction_amount", operator: ">", value: 5 },
                { condition_type: "transaction_type", operator: "=", value: "expense" },
              ],
            },
          ],
          actions: [{ action_type: "set_transaction_name", value: "Coffee" }, { action_type: "exclude_transaction" }],
        },
      }),
    ).data;
    // Sure: Api::V1::RulesControllerTest "should show rule with conditions and actions"
    expect(created).toMatchObject({
      name: "Coffee cleanup",
      resource_type: "transaction",
      active: true,
      effective_date: "2024-01-01",
      conditions: [
        { condition_type: "transaction_name", operator: "like", value: "coffee", sub_conditions: [] },
        {
          condition_type: "compound",
          operator: "or",
          value: null,
          sub_conditions: [
            { condition_type: "transaction_amount", operator: ">", value: "5", sub_conditions: [] },
            { condition_type: "transaction_type", operator: "=", value: "expense", sub_conditions: [] },
          ],
        },
      ],
      actions: [
        { action_type: "set_transaction_name", value: "Coffee" },
        { action_type: "exclude_transaction", value: null },
      ],
    });
    expect((await call("rules.get", { id: created.id })).data).toEqual(created);

    const inactive = (await call("rules.create", { rule: { name: "  ", active: false, actions: [{ action_type: "exclude_transaction", value: "ignored" }] } }))
      .data;
    expect(inactive).toMatchObject({ name: null, active: false, conditions: [], effective_date: null, actions: [{ value: null }] });

    const listed = RuleCollectionSchema.parse(await call("rules.list", {}));
    expect(listed.data.map((rule) => rule.id)).toEqual([created.id, inactive.id]);
    expect(listed.meta).toEqual({ current_page: 1, page: 1, next_page: null, prev_page: null, total_pages: 1, total_count: 2, per_page: 25 });
    // Sure: "should filter rules by active status"
    expect((await call("rules.list", { active: "true" })).data.map((rule: { id: string }) => rule.id)).toEqual([created.id]);
    expect((await call("rules.list", { active: "0" })).data.map((rule: { id: string }) => rule.id)).toEqual([inactive.id]);
    expect((await call("rules.list", { resource_type: "transaction", per_page: 1, page: 2 })).meta).toMatchObject({
      current_page: 2,
      next_page: null,
      prev_page: 1,
      total_pages: 2,
    });
    // Sure: "should reject invalid active filter", "should reject unsupported resource type filter"
    const badType = await expectAppError(call("rules.list", { resource_type: "account" }), "validation_failed");
    expect(badType.errors).toEqual(["resource_type must be one of: transaction"]);
    await expectAppError(call("rules.list", { active: "not_boolean" }), "validation_failed");
    // As Sure's `present?`: an empty filter is no filter.
    expect((await call("rules.list", { active: "", resource_type: " " })).meta.total_count).toBe(2);

    const updated = (
      await call("rules.update", {
        id: created.id,
        rule: { name: "Coffee", active: false, effective_date: null, conditions: [{ condition_type: "transaction_notes", operator: "is_null" }] },
      })
    ).data;
    expect(updated).toMatchObject({ name: "Coffee", active: false, effective_date: null, conditions: [{ condition_type: "transaction_notes", value: null }] });
    expect(updated.actions).toEqual(created.actions);
    expect(updated.updated_at >= created.updated_at).toBe(true);
    // The replaced compound took its sub-conditions with it.
    expect(await finance.db.ruleCondition.count({ where: { OR: [{ ruleId: created.id }, { parent: { ruleId: created.id } }] } })).toBe(1);
    const renamed = (await call("rules.update", { id: created.id, rule: { actions: [{ action_type: "set_transaction_name", value: "Café" }] } })).data;
    expect(renamed.actions).toMatchObject([{ action_type: "set_transaction_name", value: "Café" }]);
    expect(renamed.conditions).toEqual(updated.conditions);

    expect(await call("rules.delete", { id: created.id })).toEqual({ message: "Rule deleted successfully" });
    await expectAppError(call("rules.get", { id: created.id }), "record_not_found");
    expect(await finance.db.ruleCondition.count({ where: { rule: { id: created.id } } })).toBe(0);
  });

  it("keeps another family's rule out of reach: 404 for every route, absent from the list", async () => {
    const alice = await newFamily();
    const bob = await newFamily();
    const rule = (await alice.call("rules.create", { rule: { actions: [{ action_type: "exclude_transaction" }] } })).data;
    // Sure: Api::V1::RulesControllerTest "should not show another family's rule", "should not list another family's rules"
    await expectAppError(bob.call("rules.get", { id: rule.id }), "record_not_found");
    await expectAppError(bob.call("rules.update", { id: rule.id, rule: { name: "Mine now" } }), "record_not_found");
    await expectAppError(bob.call("rules.apply", { id: rule.id }), "record_not_found");
    await expectAppError(bob.call("rules.preview", { id: rule.id }), "record_not_found");
    await expectAppError(bob.call("rules.delete", { id: rule.id }), "record_not_found");
    expect((await bob.call("rules.list", {})).data).toEqual([]);
    expect((await alice.call("rules.get", { id: rule.id })).data).toMatchObject({ id: rule.id, name: null });
    expect(await finance.db.ruleRun.count({ where: { ruleId: rule.id } })).toBe(0);
  });
});

/** Queues a run of the rule and waits for the background worker to finish it. */
async function applyAndWait(call: Call, id: string, body: Record<string, unknown> = {}) {
  const queued = (await call("rules.apply", { id, ...body })).data;
  expect(queued).toMatchObject({ rule_id: id, status: "pending", execution_type: "manual", transactions_modified: 0 });
  return eventually(async () => {
    const run = (await call("ruleRuns.get", { id: queued.id })).data;
    expect(run.status).not.toBe("pending");
    return run;
  });
}

const createRule = async (call: Call, rule: Record<string, unknown>) => RuleResponseSchema.parse(await call("rules.create", { rule })).data;
const byName = (name: string) => ({ condition_type: "transaction_name", operator: "like", value: name });

/** Sure's Rule::ActionTest fixture: txn1 at Whole Foods, txn2 an income, txn3 the day before. */
async function actionFixture() {
  const family = await newFamily();
  const wholeFoods = await family.call("merchants.create", { merchant: { name: "Whole Foods" } });
  const txn1 = await family.transaction({ amount: 100, name: "Rule test transaction1", merchant_id: wholeFoods.id });
  const txn2 = await family.transaction({ amount: -200, name: "Rule test transaction2" });
  const txn3 = await family.transaction({ date: "2026-02-28", amount: 50, name: "Rule test transaction3" });
  const get = (id: string) => family.call("transactions.get", { id });
  return { ...family, wholeFoods, txn1, txn2, txn3, get };
}

describe("rule actions, applied in the background", () => {
  it("set_transaction_category leaves a category set by hand unless the run ignores locks", async () => {
    const { call, txn1, txn2, txn3, get } = await actionFixture();
    const grocery = await call("categories.create", { category: { name: "Grocery" } });
    const mine = await call("categories.create", { category: { name: "Mine" } });
    await call("transactions.update", { id: txn1.id, transaction: { category_id: mine.id } });
    // A row written before locked_attributes had its default holds NULL: nothing is locked there.
    await finance.db.$executeRaw`UPDATE entries SET locked_attributes = NULL WHERE id = ${txn3.id}::uuid`;
    const rule = await createRule(call, { conditions: [byName("Rule test")], actions: [{ action_type: "set_transaction_category", value: grocery.id }] });
    // Sure: Rule::ActionTest "set_transaction_category" (a locked transaction keeps its category)
    const run = await applyAndWait(call, rule.id);
    expect(run).toMatchObject({ status: "success", transactions_queued: 3, transactions_processed: 3, transactions_modified: 2, error_message: null });
    expect((await get(txn1.id)).category.id).toBe(mine.id);
    for (const txn of [txn2, txn3]) expect((await get(txn.id)).category.id).toBe(grocery.id);
    // Sure: "set_transaction_category overrides locked category when ignore_attribute_locks"
    const forced = await applyAndWait(call, rule.id, { ignore_attribute_locks: true });
    expect(forced).toMatchObject({ status: "success", transactions_queued: 3, transactions_modified: 1 });
    expect((await get(txn1.id)).category.id).toBe(grocery.id);
    // Nothing left to change: a third run modifies nothing.
    expect((await applyAndWait(call, rule.id, { ignore_attribute_locks: "true" })).transactions_modified).toBe(0);
  });

  it("set_transaction_tags adds the tag, keeps existing tags, never twice, and respects locked tags", async () => {
    const { call, txn1, txn2, txn3, get } = await actionFixture();
    const existing = await call("tags.create", { tag: { name: "Existing" } });
    const added = await call("tags.create", { tag: { name: "From rule" } });
    // Tags a person set are locked (Sure locks tag_ids when some are given)...
    await call("transactions.update", { id: txn1.id, transaction: { tag_ids: [existing.id] } });
    // ...tags from elsewhere (an import, another rule) are not.
    await finance.db.entryTag.create({ data: { entryId: txn2.id, tagId: existing.id } });
    await finance.db.entryTag.create({ data: { entryId: txn3.id, tagId: added.id } });
    const rule = await createRule(call, { conditions: [byName("Rule test")], actions: [{ action_type: "set_transaction_tags", value: added.id }] });
    // Sure: Rule::ActionTest "set_transaction_tags", "... preserves existing tags", "... does not duplicate existing tags"
    expect(await applyAndWait(call, rule.id)).toMatchObject({ status: "success", transactions_queued: 3, transactions_modified: 1 });
    const tagNames = async (id: string) => (await get(id)).tags.map((tag: { name: string }) => tag.name);
    expect(await tagNames(txn1.id)).toEqual(["Existing"]);
    expect(await tagNames(txn2.id)).toEqual(["Existing", "From rule"]);
    expect(await tagNames(txn3.id)).toEqual(["From rule"]);
  });

  it("set_transaction_merchant and set_transaction_name respect a merchant and a name set by hand", async () => {
    const { call, txn1, txn2, txn3, get, wholeFoods } = await actionFixture();
    const merchant = await call("merchants.create", { merchant: { name: "Rule test merchant" } });
    await call("transactions.update", { id: txn1.id, transaction: { name: "Renamed by hand" } });
    await call("transactions.update", { id: txn3.id, transaction: { merchant_id: wholeFoods.id } });
    const rule = await createRule(call, {
      conditions: [{ condition_type: "transaction_account", operator: "=", value: txn1.account.id }],
      actions: [
        { action_type: "set_transaction_merchant", value: merchant.id },
        { action_type: "set_transaction_name", value: "Renamed Transaction" },
      ],
    });
    // Sure: Rule::ActionTest "set_transaction_merchant", "set_transaction_name" (txn1's merchant was chosen when it was created)
    expect(await applyAndWait(call, rule.id)).toMatchObject({ status: "success", transactions_queued: 3, transactions_modified: 2 });
    expect(await get(txn1.id)).toMatchObject({ name: "Renamed by hand", merchant: { id: wholeFoods.id } });
    expect(await get(txn2.id)).toMatchObject({ name: "Renamed Transaction", merchant: { id: merchant.id } });
    expect(await get(txn3.id)).toMatchObject({ name: "Renamed Transaction", merchant: { id: wholeFoods.id } });
    // Sure: "set_transaction_name overrides locked name when ignore_attribute_locks"
    await applyAndWait(call, rule.id, { ignore_attribute_locks: true });
    expect(await get(txn1.id)).toMatchObject({ name: "Renamed Transaction", merchant: { id: merchant.id } });
    expect((await get(txn3.id)).merchant.id).toBe(merchant.id);
  });

  it("exclude_transaction excludes what matches, but not a transaction a person kept included", async () => {
    const { call, txn1, txn2, txn3, get } = await actionFixture();
    await call("transactions.update", { id: txn2.id, transaction: { excluded: true } });
    await call("transactions.update", { id: txn2.id, transaction: { excluded: false } });
    const rule = await createRule(call, { conditions: [byName("Rule test")], actions: [{ action_type: "exclude_transaction" }] });
    // Sure: RuleTest "exclude transaction rule", "exclude transaction rule respects attribute locks"
    expect(await applyAndWait(call, rule.id)).toMatchObject({ transactions_modified: 2 });
    expect((await get(txn1.id)).excluded).toBe(true);
    expect((await get(txn2.id)).excluded).toBe(false);
    expect((await get(txn3.id)).excluded).toBe(true);
  });

  it("set_investment_activity_label relabels the matched trades, not a locked one", async () => {
    const { call } = await newFamily();
    const brokerage = await call("accounts.create", { account: { name: "Brokerage", account_type: "investment", balance: 100 } });
    const trade = async (type: string) =>
      (await call("trades.create", { trade: { account_id: brokerage.id, type, date: "2026-03-03", amount: 25, ticker: "AAPL" } })).body;
    const dividend = await trade("dividend");
    const locked = await trade("dividend");
    // Set by hand through the API, which locks it (the test once wrote the lock itself and so missed that trades.update did not).
    await call("trades.update", { id: locked.id, trade: { investment_activity_label: "Dividend" } });
    const rule = await createRule(call, {
      conditions: [{ condition_type: "transaction_account", operator: "=", value: brokerage.id }, byName("Dividend")],
      actions: [{ action_type: "set_investment_activity_label", value: "Reinvestment" }],
    });
    // Sure: Rule::ActionTest "set_investment_activity_label" (Hearth keeps the label on trades)
    expect(await applyAndWait(call, rule.id)).toMatchObject({ status: "success", transactions_queued: 2, transactions_modified: 1 });
    expect((await call("trades.get", { id: dividend.id })).investment_activity_label).toBe("Reinvestment");
    expect((await call("trades.get", { id: locked.id })).investment_activity_label).toBe("Dividend");
  });

  it("set_as_transfer_or_payment pairs each match with a new side in the account named, as a confirmed transfer", async () => {
    const { call, account, transaction } = await newFamily();
    const get = (id: string) => call("transactions.get", { id });
    const brokerage = await call("accounts.create", { account: { name: "Brokerage", account_type: "investment" } });
    const card = await call("accounts.create", { account: { name: "Card", account_type: "credit_card" } });
    const contribution = await transaction({ amount: 300, name: "To brokerage", date: "2026-02-10" });
    const refund = await transaction({ amount: -40, name: "Card refund", date: "2026-02-12" });
    const untouched = await transaction({ amount: 5, name: "Coffee" });
    // Sure: Rule::ActionTest "set_as_transfer_or_payment assigns investment_contribution kind and category for investment destination"
    const toBrokerage = await createRule(call, {
      conditions: [byName("To brokerage")],
      actions: [{ action_type: "set_as_transfer_or_payment", value: brokerage.id }],
    });
    expect(await applyAndWait(call, toBrokerage.id)).toMatchObject({ status: "success", transactions_modified: 1 });
    const outflow = TransactionSchema.parse(await get(contribution.id));
    expect(outflow).toMatchObject({ kind: "investment_contribution", category: { name: "Investment Contributions" } });
    expect(outflow.transfer).toMatchObject({ amount_cents: 30000, other_account: { id: brokerage.id } });
    const transfer = await call("transfers.get", { id: outflow.transfer!.id });
    expect(transfer).toMatchObject({
      status: "confirmed",
      inflow_transaction: { amount_cents: -30000, name: "Transfer from Checking", kind: "funds_movement" },
    });
    expect(transfer.inflow_transaction.account.id).toBe(brokerage.id);

    // An inflow matched: the new side is the outflow, from the card; a liability makes it a payment.
    const fromCard = await createRule(call, { conditions: [byName("refund")], actions: [{ action_type: "set_as_transfer_or_payment", value: card.id }] });
    expect(await applyAndWait(call, fromCard.id)).toMatchObject({ transactions_modified: 1 });
    const inflow = await get(refund.id);
    expect(inflow.kind).toBe("funds_movement");
    const payment = await call("transfers.get", { id: inflow.transfer.id });
    expect(payment).toMatchObject({ outflow_transaction: { name: "Transfer to Checking", amount_cents: 4000, kind: "funds_movement" } });
    expect(payment.outflow_transaction.account.id).toBe(card.id);

    // Already transfers: a second run changes nothing.
    const again = await applyAndWait(call, toBrokerage.id);
    expect(again).toMatchObject({ transactions_queued: 1, transactions_modified: 0 });
    expect((await get(untouched.id)).transfer).toBeNull();
    expect(await finance.db.transfer.count({ where: { familyId: (await finance.db.account.findUniqueOrThrow({ where: { id: account.id } })).familyId } })).toBe(
      2,
    );
    // The new sides move the other accounts' balances once the queued syncs ran.
    await eventually(async () => expect((await call("accounts.get", { id: brokerage.id })).balance_cents).toBe(30000));
  });
});

describe("rules on transactions created by the API", () => {
  it("apply before the create answers, so the answer shows their effect", async () => {
    const { call, transaction } = await newFamily();
    const coffee = await call("categories.create", { category: { name: "Coffee" } });
    const treat = await call("tags.create", { tag: { name: "Treat" } });
    await createRule(call, {
      conditions: [byName("coffee"), { condition_type: "transaction_type", operator: "=", value: "expense" }],
      actions: [
        { action_type: "set_transaction_category", value: coffee.id },
        { action_type: "set_transaction_tags", value: treat.id },
        { action_type: "set_transaction_name", value: "Coffee" },
      ],
    });
    const created = await transaction({ name: "STARBUCKS  COFFEE #123", amount: 4.5 });
    expect(created).toMatchObject({ name: "Coffee", category: { id: coffee.id }, tags: [{ id: treat.id }] });
    expect(await call("transactions.get", { id: created.id })).toEqual(created);
    const income = await transaction({ name: "Coffee refund", amount: -4.5 });
    expect(income).toMatchObject({ name: "Coffee refund", category: null, tags: [] });
  });

  it("leave what the creator chose alone, and skip inactive rules, rules not yet effective and other families' rules", async () => {
    const { call, transaction, actor } = await newFamily();
    const coffee = await call("categories.create", { category: { name: "Coffee" } });
    const chosen = await call("categories.create", { category: { name: "Chosen" } });
    await createRule(call, { conditions: [byName("latte")], actions: [{ action_type: "set_transaction_category", value: coffee.id }] });
    await createRule(call, { active: false, conditions: [byName("latte")], actions: [{ action_type: "set_transaction_name", value: "Inactive" }] });
    await createRule(call, { effective_date: "2026-04-01", conditions: [byName("latte")], actions: [{ action_type: "exclude_transaction" }] });
    const other = await newFamily();
    const theirs = await other.call("merchants.create", { merchant: { name: "Theirs" } });
    await createRule(other.call, { conditions: [byName("latte")], actions: [{ action_type: "set_transaction_merchant", value: theirs.id }] });

    const picked = await transaction({ name: "Latte", category_id: chosen.id, notes: "mine" });
    expect(picked).toMatchObject({ name: "Latte", category: { id: chosen.id }, excluded: false, merchant: null });
    const row = await finance.db.entry.findUniqueOrThrow({ where: { id: picked.id } });
    expect(row.lockedAttributes.sort()).toEqual(["category_id", "notes"]);
    const plain = await transaction({ name: "Latte" });
    expect(plain).toMatchObject({ name: "Latte", category: { id: coffee.id }, excluded: false, merchant: null });
    expect(await finance.db.entry.count({ where: { familyId: actor.familyId, name: "Inactive" } })).toBe(0);
    // On its effective date the third rule applies.
    expect((await transaction({ name: "Latte", date: "2026-04-01" })).excluded).toBe(true);
  });

  it("a rule that can no longer run is skipped: the create succeeds and the other rules still apply", async () => {
    const { call, transaction } = await newFamily();
    const broken = await createRule(call, { conditions: [byName("tea")], actions: [{ action_type: "set_transaction_name", value: "Broken" }] });
    await finance.db.ruleCondition.updateMany({ where: { ruleId: broken.id }, data: { operator: "sounds_like" } });
    const failing = await createRule(call, { conditions: [byName("tea")], actions: [{ action_type: "set_transaction_name", value: "Failing" }] });
    // A value the database cannot take fails the rule at run time (not only when compiled).
    await finance.db.ruleCondition.updateMany({ where: { ruleId: failing.id }, data: { conditionType: "transaction_amount", operator: ">", value: "1" } });
    await finance.db.ruleAction.updateMany({ where: { ruleId: failing.id }, data: { value: "x".repeat(10) } });
    await finance.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION rules_test_refuse() RETURNS trigger AS $$
      BEGIN IF NEW.name = 'xxxxxxxxxx' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(`CREATE TRIGGER rules_test_refuse BEFORE UPDATE ON entries FOR EACH ROW EXECUTE FUNCTION rules_test_refuse()`);
    try {
      const working = await createRule(call, { conditions: [byName("tea")], actions: [{ action_type: "exclude_transaction" }] });
      const created = await transaction({ name: "Green tea", amount: 3 });
      expect(created).toMatchObject({ name: "Green tea", excluded: true });
      expect(working.id).toBeDefined();
    } finally {
      await finance.db.$executeRawUnsafe(`DROP TRIGGER rules_test_refuse ON entries`);
    }
  });

  it("set_as_transfer_or_payment on create answers the transaction as a transfer", async () => {
    const { call, transaction } = await newFamily();
    const card = await call("accounts.create", { account: { name: "Card", account_type: "credit_card" } });
    await createRule(call, { conditions: [byName("card payment")], actions: [{ action_type: "set_as_transfer_or_payment", value: card.id }] });
    const paid = await transaction({ name: "Card payment", amount: 250 });
    expect(paid).toMatchObject({ kind: "cc_payment", transfer: { amount_cents: 25000, other_account: { id: card.id } } });
    const list = await call("transactions.list", { account_id: card.id });
    expect(list.transactions).toMatchObject([{ name: "Payment from Checking", amount_cents: 25000, kind: "funds_movement" }]);
    expect(list.pagination.total_count).toBe(1);
  });
});

describe("attribute locks", () => {
  it("record what a person changed by hand, and nothing for a value left as it was", async () => {
    const { call, transaction } = await newFamily();
    const tag = await call("tags.create", { tag: { name: "T" } });
    const created = await transaction({ name: "Plain", excluded: false, tag_ids: [] });
    const locks = async () => (await finance.db.entry.findUniqueOrThrow({ where: { id: created.id } })).lockedAttributes.sort();
    expect(await locks()).toEqual([]);
    await call("transactions.update", { id: created.id, transaction: { name: "Plain", notes: null, excluded: false, tag_ids: [] } });
    expect(await locks()).toEqual([]);
    await call("transactions.update", { id: created.id, transaction: { name: "Renamed", tag_ids: [tag.id] } });
    expect(await locks()).toEqual(["name", "tag_ids"]);
    await call("transactions.update", { id: created.id, transaction: { excluded: true, category_id: null, notes: "n" } });
    expect(await locks()).toEqual(["excluded", "name", "notes", "tag_ids"]);
  });
});

describe("preview", () => {
  it("answers how many and which transactions would change, and how, changing nothing", async () => {
    const { call, txn1, txn2, txn3 } = await actionFixture();
    const grocery = await call("categories.create", { category: { name: "Grocery" } });
    const mine = await call("categories.create", { category: { name: "Mine" } });
    await call("transactions.update", { id: txn1.id, transaction: { category_id: mine.id } });
    await call("transactions.update", { id: txn3.id, transaction: { excluded: true } });
    const rule = await createRule(call, {
      conditions: [byName("Rule test")],
      actions: [{ action_type: "set_transaction_category", value: grocery.id }, { action_type: "exclude_transaction" }],
    });
    const before = await finance.db.entry.findMany({ where: { accountId: txn1.account.id }, include: { tags: true }, orderBy: { id: "asc" } });
    const preview = RulePreviewSchema.parse(await call("rules.preview", { id: rule.id })).data;
    expect(preview).toMatchObject({ rule_id: rule.id, transactions_matched: 3, transactions_to_change: 3 });
    // Newest first (by date, then as created).
    expect(preview.transactions.map((t) => [t.name, t.changes])).toEqual([
      ["Rule test transaction2", ["set_transaction_category", "exclude_transaction"]],
      ["Rule test transaction1", ["exclude_transaction"]],
      ["Rule test transaction3", ["set_transaction_category"]],
    ]);
    expect(preview.transactions[0]).toMatchObject({ amount_cents: 20000, signed_amount_cents: 20000, classification: "income", account: { name: "Checking" } });
    const forced = RulePreviewSchema.parse(await call("rules.preview", { id: rule.id, ignore_attribute_locks: true })).data;
    expect(forced.transactions[1]!.changes).toEqual(["set_transaction_category", "exclude_transaction"]);
    const after = await finance.db.entry.findMany({ where: { accountId: txn1.account.id }, include: { tags: true }, orderBy: { id: "asc" } });
    expect(after).toEqual(before);
    expect(await finance.db.ruleRun.count({ where: { ruleId: rule.id } })).toBe(0);
    expect(txn2.id).toBeDefined();
  });
});

describe("rule validation", () => {
  const refused = async (call: Call, rule: Record<string, unknown>, message: string | RegExp) => {
    const error = await expectAppError(call("rules.create", { rule }), "validation_failed");
    expect(
      error.errors?.some((text) => (typeof message === "string" ? text.includes(message) : message.test(text))),
      JSON.stringify(error.errors),
    ).toBe(true);
    return error;
  };
  const exclude = [{ action_type: "exclude_transaction" }];

  it("refuses an unknown condition type, operator or action, naming it", async () => {
    const { call } = await newFamily();
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_colour", operator: "=", value: "x" }], actions: exclude },
      "Unsupported condition type: transaction_colour",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_name", operator: ">", value: "x" }], actions: exclude },
      "Unsupported operator: > for transaction_name",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_amount", operator: "like", value: "5" }], actions: exclude },
      "Unsupported operator: like for transaction_amount",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_type", operator: "is_null" }], actions: exclude },
      "Unsupported operator: is_null for transaction_type",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "compound", operator: "xor", sub_conditions: [] }], actions: exclude },
      "Unsupported operator: xor for compound",
    );
    await refused(call, { actions: [{ action_type: "send_email_notification" }] }, "Unsupported action type: send_email_notification");
    await refused(
      call,
      {
        conditions: [{ condition_type: "compound", operator: "and", sub_conditions: [{ condition_type: "transaction_tags", operator: "=", value: "x" }] }],
        actions: exclude,
      },
      "Unsupported condition type: transaction_tags",
    );
    expect((await call("rules.list", {})).data).toEqual([]);
  });

  it("refuses no actions, duplicate action types and nested compounds (Sure's Rule validations)", async () => {
    const { call } = await newFamily();
    await refused(call, { actions: [] }, "Rule must have at least one action");
    await refused(call, {}, "actions is required");
    await refused(
      call,
      {
        actions: [
          { action_type: "set_transaction_name", value: "A" },
          { action_type: "exclude_transaction" },
          { action_type: "set_transaction_name", value: "B" },
        ],
      },
      "Rule cannot have duplicate actions: set_transaction_name",
    );
    // Sure: RuleTest "no nested compound conditions"
    await refused(
      call,
      {
        conditions: [{ condition_type: "compound", operator: "and", sub_conditions: [{ condition_type: "compound", operator: "or", sub_conditions: [] }] }],
        actions: exclude,
      },
      "Compound conditions cannot be nested",
    );
    const rule = await createRule(call, { actions: exclude });
    const emptied = await expectAppError(call("rules.update", { id: rule.id, rule: { actions: [] } }), "validation_failed");
    expect(emptied.errors).toEqual(["rule.actions: Rule must have at least one action"]);
    expect((await call("rules.get", { id: rule.id })).data.actions).toHaveLength(1);
  });

  it("refuses values a condition or action cannot use, and references to records not the family's", async () => {
    const { call } = await newFamily();
    const other = await newFamily();
    const theirs = await other.call("categories.create", { category: { name: "Theirs" } });
    await refused(call, { conditions: [{ condition_type: "transaction_name", operator: "like", value: "   " }], actions: exclude }, "value can't be blank");
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_amount", operator: ">", value: "ten" }], actions: exclude },
      "must be a non-negative number",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_amount", operator: ">", value: -5 }], actions: exclude },
      "must be a non-negative number",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_category", operator: "=", value: "groceries" }], actions: exclude },
      "must be an id (UUID)",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_type", operator: "=", value: "refund" }], actions: exclude },
      "income, expense, transfer",
    );
    await refused(
      call,
      { conditions: [{ condition_type: "transaction_name", operator: "=", value: "x", sub_conditions: [byName("y")] }], actions: exclude },
      "Only compound",
    );
    await refused(call, { actions: [{ action_type: "set_transaction_name", value: "" }] }, "value of set_transaction_name can't be blank");
    await refused(call, { actions: [{ action_type: "set_investment_activity_label", value: "InvalidLabel" }] }, "must be one of: Buy");
    await refused(call, { actions: [{ action_type: "set_transaction_category", value: theirs.id }] }, "set_transaction_category: Category not found");
    await refused(
      call,
      { actions: [{ action_type: "set_as_transfer_or_payment", value: crypto.randomUUID() }] },
      "set_as_transfer_or_payment: Account not found",
    );
    await refused(call, { resource_type: "account", actions: exclude }, "resource_type must be one of: transaction");
    await refused(call, { effective_date: "2026-02-30", actions: exclude }, "real calendar date");
    expect((await call("rules.list", {})).data).toEqual([]);
  });

  it("refuses hostile input by its bounds: huge strings, 10,000 conditions, too many actions", async () => {
    const { call } = await newFamily();
    const huge = "x".repeat(1_000_000);
    await refused(call, { name: huge, actions: exclude }, "Name is too long (maximum is 255 characters)");
    await refused(call, { conditions: [byName(huge)], actions: exclude }, "value is too long (maximum is 500 characters)");
    await refused(call, { actions: [{ action_type: huge }] }, "action_type is too long");
    await refused(call, { conditions: [{ condition_type: huge, operator: "=", value: "x" }], actions: exclude }, "condition_type is too long");
    const many = Array.from({ length: 10_000 }, () => byName("coffee"));
    const started = Date.now();
    await refused(call, { conditions: many, actions: exclude }, "A rule can have at most 20 conditions");
    await refused(call, { conditions: [{ condition_type: "compound", operator: "or", sub_conditions: many }], actions: exclude }, "at most 20 sub-conditions");
    // Leaves in all: 3 compounds of 20 are within each bound but 60 conditions to evaluate per transaction.
    const compound = { condition_type: "compound", operator: "or", sub_conditions: many.slice(0, 20) };
    await refused(
      call,
      { conditions: [compound, compound, compound], actions: exclude },
      "at most 40 conditions in all, sub-conditions included (this one has 60)",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    await refused(call, { actions: Array.from({ length: 100 }, () => ({ action_type: "exclude_transaction" })) }, "at most 7 actions");
    // At the bound, it is fine.
    const wide = await createRule(call, { conditions: [compound, ...many.slice(0, 19)], actions: exclude });
    expect(wide.conditions).toHaveLength(20);
    expect((await call("rules.list", {})).data).toHaveLength(1);
  });

  it("bounds the rules of a family (each new transaction is checked against them)", async () => {
    const { call, actor } = await newFamily();
    await finance.db.rule.createMany({ data: Array.from({ length: 195 }, () => ({ familyId: actor.familyId, active: false })) });
    // Ten at once for the last five places: the per-family lock lets exactly five through (was: a count then an insert, so more).
    const attempts = await Promise.allSettled(Array.from({ length: 10 }, () => createRule(call, { actions: [{ action_type: "exclude_transaction" }] })));
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(5);
    await refused(call, { actions: [{ action_type: "exclude_transaction" }] }, "A family can have at most 200 rules");
    expect(await finance.db.rule.count({ where: { familyId: actor.familyId } })).toBe(200);
    // Another family is not affected.
    await createRule((await newFamily()).call, { actions: [{ action_type: "exclude_transaction" }] });
  });
});
