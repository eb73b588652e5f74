// Publishing CategoryImport, MerchantImport and RuleImport (data in) through the real procedures:
// imports.create with publish, the import worker's one transaction, imports.get. Cases mirror
// Sure's test/models/category_import_test.rb and rule_import_test.rb where named (Sure has no
// merchant_import_test.rb: those mirror MerchantImport#import!).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema, RuleCollectionSchema, type Actor, type ImportDetail, type Rule } from "@hearth/contracts";
import { expectAppError, financeAs, newActor, publishedImport, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

function newFamily(actor: Actor = newActor()) {
  return { actor, familyId: actor.familyId, call: financeAs(finance, actor) };
}
type Family = ReturnType<typeof newFamily>;

/** Uploads `csv` asking for it to be published, and waits until the worker has finished with it. */
const publish = (family: Family, type: string, csv: string): Promise<ImportDetail> => publishedImport(family.call, { type, raw_file_content: csv });

async function published(family: Family, type: string, csv: string): Promise<ImportDetail> {
  const detail = await publish(family, type, csv);
  expect(detail.error ?? null, "the import failed").toBeNull();
  expect(detail.status).toBe("complete");
  return detail;
}

async function failed(family: Family, type: string, csv: string): Promise<string> {
  const detail = await publish(family, type, csv);
  expect(detail.status).toBe("failed");
  return detail.error ?? "";
}

/** A CSV field quoted as Ruby's CSV.generate writes it. */
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
const csvLine = (cells: string[]) => cells.map(quoted).join(",");

const categoriesOf = (familyId: string) => finance.db.category.findMany({ where: { familyId }, include: { parent: true }, orderBy: { name: "asc" } });
async function categoryNamed(familyId: string, name: string) {
  const row = await finance.db.category.findUnique({ where: { familyId_name: { familyId, name } }, include: { parent: true } });
  if (!row) throw new Error(`no category ${name}`);
  return row;
}

describe("CategoryImport", () => {
  const SURE_CSV = [
    "name,color,parent_category,icon",
    "Food & Drink,#f97316,,carrot",
    "Groceries,#407706,Food & Drink,shopping-basket",
    "Salary,#22c55e,,briefcase",
  ].join("\n");

  it("imports categories with their parents, colours and icons (Sure: 'imports categories from Sure export')", async () => {
    const family = newFamily();
    const detail = await published(family, "CategoryImport", SURE_CSV);
    expect(detail.result).toEqual({ categories_created: 3, categories_updated: 0 });

    const food = await categoryNamed(family.familyId, "Food & Drink");
    const groceries = await categoryNamed(family.familyId, "Groceries");
    const salary = await categoryNamed(family.familyId, "Salary");
    expect(food).toMatchObject({ icon: "carrot", color: "#f97316", parentId: null, classification: "expense" });
    // Hearth's subcategories keep their own colour (Sure's would take the parent's).
    expect(groceries).toMatchObject({ icon: "shopping-basket", color: "#407706", parentId: food.id });
    expect(salary).toMatchObject({ icon: "briefcase", parentId: null });
    expect(await categoriesOf(family.familyId)).toHaveLength(3);
  });

  it("places a subcategory whose parent's row comes later (Sure: 'imports subcategories even when parent row comes later')", async () => {
    const family = newFamily();
    const csv = ["name,color,parent_category,icon", "Utilities,#407706,Household,plug", "Household,#f97316,,house"].join("\n");
    expect((await published(family, "CategoryImport", csv)).result).toEqual({ categories_created: 2, categories_updated: 0 });
    const household = await categoryNamed(family.familyId, "Household");
    const utilities = await categoryNamed(family.familyId, "Utilities");
    expect(utilities.parentId).toBe(household.id);
    expect(household).toMatchObject({ color: "#f97316", icon: "house" });
  });

  it("makes a parent no row describes, with the default colour and an icon from its name (Sure's ensure_placeholder_category)", async () => {
    const family = newFamily();
    await published(family, "CategoryImport", "name,parent_category,classification\nSide gig,Income,income\nBonus,Income,");
    const income = await categoryNamed(family.familyId, "Income");
    expect(income).toMatchObject({ color: "#6172F3", icon: "circle-dollar-sign", parentId: null, classification: "expense" });
    expect(await categoryNamed(family.familyId, "Side gig")).toMatchObject({ parentId: income.id, color: "#6172F3", classification: "income" });
    // A new subcategory without a classification takes its parent's, as categories.create gives it.
    expect(await categoryNamed(family.familyId, "Bonus")).toMatchObject({ parentId: income.id, classification: "expense" });
  });

  it("lets a later row of the same name win (Sure: 'updates categories when duplicate rows are provided')", async () => {
    const family = newFamily();
    const csv = ["name,color,parent_category,icon", "Snacks,#aaaaaa,,cookie", "Snacks,#bbbbbb,,pizza"].join("\n");
    expect((await published(family, "CategoryImport", csv)).result).toEqual({ categories_created: 1, categories_updated: 0 });
    expect(await categoryNamed(family.familyId, "Snacks")).toMatchObject({ color: "#bbbbbb", icon: "pizza" });
  });

  it("updates the family's categories by name: given fields change, others stay, a row without a parent makes it top-level (Sure's find_or_initialize_by and parent reset)", async () => {
    const family = newFamily();
    await family.call("categories.list"); // the defaults: Groceries under Food & Drink, Salary under Income
    const food = await categoryNamed(family.familyId, "Food & Drink");
    const before = await categoryNamed(family.familyId, "Groceries");
    expect(before.parentId).toBe(food.id);

    const csv = [
      "name,color,parent_category,lucide_icon,classification",
      "Groceries,,,carrot,",
      "Coffee,,Food & Drink,,",
      "Salary,#123456,Income,,income",
      "Travel,,,,income",
    ].join("\n");
    const detail = await published(family, "CategoryImport", csv);
    // Salary is already as the row has it but for its colour; Food & Drink and Income are only named as parents.
    expect(detail.result).toEqual({ categories_created: 1, categories_updated: 3 });

    expect(await categoryNamed(family.familyId, "Groceries")).toMatchObject({ id: before.id, parentId: null, icon: "carrot", color: before.color });
    expect(await categoryNamed(family.familyId, "Coffee")).toMatchObject({ parentId: food.id, color: food.color, icon: "coffee", classification: "expense" });
    expect(await categoryNamed(family.familyId, "Salary")).toMatchObject({ color: "#123456", parent: { name: "Income" } });
    expect(await categoryNamed(family.familyId, "Travel")).toMatchObject({ classification: "income" });

    // The same file again changes nothing.
    expect((await published(family, "CategoryImport", csv)).result).toEqual({ categories_created: 0, categories_updated: 0 });
  });

  it("fails on a third level, naming the row, and writes nothing (Sure's category_level_limit)", async () => {
    const family = newFamily();
    const error = await failed(family, "CategoryImport", "name,parent_category\nFresh,Vegetables\nVegetables,Produce\nOther,");
    expect(error).toMatch(/^Row 1: 'Fresh' cannot be a subcategory of 'Vegetables', which is itself a subcategory of 'Produce'/);
    expect(await categoriesOf(family.familyId)).toEqual([]);

    const cycle = await failed(family, "CategoryImport", "name,parent_category\nA,B\nB,A");
    expect(cycle).toMatch(/^Row 1: 'A' cannot be a subcategory of 'B'/);
    expect(await categoriesOf(family.familyId)).toEqual([]);
  });

  it("fails when a category with subcategories is given a parent, and changes nothing (Sure's category_level_limit)", async () => {
    const family = newFamily();
    await family.call("categories.list");
    const before = await categoriesOf(family.familyId);
    const error = await failed(family, "CategoryImport", "name,color,parent_category\nNew one,#000000,\nFood & Drink,#000000,Shopping");
    expect(error).toMatch(/^Row 2: 'Food & Drink' has subcategories \('Groceries', 'Restaurants'\) and cannot be a subcategory of 'Shopping'/);
    expect(await categoriesOf(family.familyId)).toEqual(before);
  });

  it("refuses to publish rows with errors (a category its own parent: Sure's own_parent; a colour that is none), writing nothing", async () => {
    const family = newFamily();
    const refused = await expectAppError(
      family.call("imports.create", { type: "CategoryImport", raw_file_content: "name,color,parent_category\nLoop,,Loop\nFine,red,", publish: true }),
      "not_publishable",
    );
    expect(refused.importId).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await family.call("imports.rows", { id: refused.importId });
    expect(rows.data.map((row: { errors: string[] }) => row.errors.join(" "))).toEqual([
      "Category 'Loop' cannot be its own parent",
      "Color must be a hex colour like #4da568",
    ]);
    expect(await categoriesOf(family.familyId)).toEqual([]);
  });
});

describe("MerchantImport", () => {
  const merchantsOf = (familyId: string) => finance.db.merchant.findMany({ where: { familyId }, orderBy: { name: "asc" } });

  it("makes each new name once with its colour and leaves the family's merchants as they are (Sure's MerchantImport#import!)", async () => {
    const family = newFamily();
    const existing = await family.call("merchants.create", { merchant: { name: "Coffee Shop", color: "#111111" } });
    const csv = [
      "name*,color,website_url",
      "Coffee Shop,#e99537,https://coffeeshop.com",
      "Pizza Palace,#4da568,https://pizzapalace.com",
      "Bookstore,,",
      "Pizza Palace,#000000,",
    ].join("\n");
    const detail = await published(family, "MerchantImport", csv);
    expect(detail.result).toEqual({ merchants_created: 2, merchants_skipped: 2 });
    expect((await merchantsOf(family.familyId)).map(({ id, name, color }) => ({ id, name, color }))).toEqual([
      { id: expect.any(String), name: "Bookstore", color: null },
      { id: existing.id, name: "Coffee Shop", color: "#111111" },
      { id: expect.any(String), name: "Pizza Palace", color: "#4da568" },
    ]);
    expect((await published(family, "MerchantImport", csv)).result).toEqual({ merchants_created: 0, merchants_skipped: 4 });
  });

  it("refuses to publish rows with errors (no name, a colour that is none), writing nothing", async () => {
    const family = newFamily();
    const refused = await expectAppError(
      family.call("imports.create", { type: "MerchantImport", raw_file_content: "name,color\nGood,#123456\n,#123456\nBad colour,blue", publish: true }),
      "not_publishable",
    );
    const detail = ImportResponseSchema.parse(await family.call("imports.get", { id: refused.importId })).data;
    expect(detail).toMatchObject({ status: "pending", stats: { rows_count: 3, valid_rows_count: 1 } });
    await expectAppError(family.call("imports.publish", { id: refused.importId }), "not_publishable");
    expect(await merchantsOf(family.familyId)).toEqual([]);
  });
});

describe("RuleImport", () => {
  /** A family whose categories are the defaults (Groceries among them), as Sure's test makes Groceries first. */
  async function ruleFamily() {
    const family = newFamily();
    await family.call("categories.list");
    const groceries = await categoryNamed(family.familyId, "Groceries");
    return { ...family, groceries };
  }
  async function rulesOf(family: Family): Promise<Rule[]> {
    return RuleCollectionSchema.parse(await family.call("rules.list", { per_page: 100 })).data;
  }
  const ruleNamed = async (family: Family, name: string) => {
    const rule = (await rulesOf(family)).find((r) => r.name === name);
    if (!rule) throw new Error(`no rule ${name}`);
    return rule;
  };
  const HEADER = "name,resource_type,active,effective_date,conditions,actions";
  const row = (name: string, conditions: unknown[], actions: unknown[], active = "true", effectiveDate = "") =>
    csvLine([name, "transaction", active, effectiveDate, JSON.stringify(conditions), JSON.stringify(actions)]);

  // Sure's fixture, its JSON quotes not doubled as Sure's heredoc writes it; auto_categorize (an AI
  // action Hearth does not offer) is exclude_transaction here.
  const SURE_CSV = [
    HEADER,
    `"Categorize groceries","transaction",true,2024-01-01,"[{"condition_type":"transaction_name","operator":"like","value":"grocery"}]","[{"action_type":"set_transaction_category","value":"Groceries"}]"`,
    `"Auto-categorize transactions","transaction",false,,"[{"condition_type":"transaction_amount","operator":">","value":"100"}]","[{"action_type":"exclude_transaction"}]"`,
  ].join("\n");

  it("imports rules with their conditions, and category names in actions as ids (Sure: 'imports rules from CSV', 'imports rule conditions correctly', 'imports rule actions correctly and maps category names to IDs')", async () => {
    const family = await ruleFamily();
    const detail = await published(family, "RuleImport", SURE_CSV);
    expect(detail.result).toEqual({ rules_created: 2, rules_updated: 0, categories_created: 0, merchants_created: 0, tags_created: 0 });

    const grocery = await ruleNamed(family, "Categorize groceries");
    expect(grocery).toMatchObject({ resource_type: "transaction", active: true, effective_date: "2024-01-01" });
    expect(grocery.conditions).toMatchObject([{ condition_type: "transaction_name", operator: "like", value: "grocery", sub_conditions: [] }]);
    expect(grocery.actions).toMatchObject([{ action_type: "set_transaction_category", value: family.groceries.id }]);

    const auto = await ruleNamed(family, "Auto-categorize transactions");
    expect(auto).toMatchObject({ active: false, effective_date: null });
    expect(auto.conditions).toMatchObject([{ condition_type: "transaction_amount", operator: ">", value: "100" }]);
    expect(auto.actions).toMatchObject([{ action_type: "exclude_transaction", value: null }]);
  });

  it("imports compound conditions with sub-conditions (Sure: 'imports compound conditions with sub-conditions')", async () => {
    const family = await ruleFamily();
    const csv = [
      HEADER,
      `"Complex rule","transaction",true,,"[{"condition_type":"compound","operator":"or","sub_conditions":[{"condition_type":"transaction_name","operator":"like","value":"walmart"},{"condition_type":"transaction_name","operator":"like","value":"target"}]}]","[{"action_type":"set_transaction_category","value":"Groceries"}]"`,
    ].join("\n");
    await published(family, "RuleImport", csv);
    const rule = await ruleNamed(family, "Complex rule");
    expect(rule.conditions).toHaveLength(1);
    expect(rule.conditions[0]).toMatchObject({ condition_type: "compound", operator: "or", value: null });
    expect(rule.conditions[0]?.sub_conditions.map((sub) => [sub.condition_type, sub.operator, sub.value])).toEqual([
      ["transaction_name", "like", "walmart"],
      ["transaction_name", "like", "target"],
    ]);
  });

  it("makes a missing category an action names (Sure: 'creates missing categories when importing actions'), and a category condition's too", async () => {
    const family = await ruleFamily();
    const csv = [
      HEADER,
      row(
        "New category rule",
        [{ condition_type: "transaction_name", operator: "like", value: "coffee" }],
        [{ action_type: "set_transaction_category", value: "Coffee Shops" }],
      ),
      row(
        "By category",
        [{ condition_type: "transaction_category", operator: "=", value: "Pet food" }],
        [{ action_type: "set_transaction_category", value: "Coffee Shops" }],
      ),
    ].join("\n");
    const detail = await published(family, "RuleImport", csv);
    expect(detail.result).toMatchObject({ rules_created: 2, categories_created: 2 });
    const coffee = await categoryNamed(family.familyId, "Coffee Shops");
    expect(coffee).toMatchObject({ color: "#6172F3", icon: "coffee", parentId: null });
    const pets = await categoryNamed(family.familyId, "Pet food");
    expect((await ruleNamed(family, "New category rule")).actions[0]?.value).toBe(coffee.id);
    const byCategory = await ruleNamed(family, "By category");
    expect(byCategory.conditions[0]?.value).toBe(pets.id);
    expect(byCategory.actions[0]?.value).toBe(coffee.id);
  });

  it("makes a missing tag an action names and reuses an existing one (Sure: 'creates missing tags when importing actions', 'reuses existing tags when importing actions')", async () => {
    const family = await ruleFamily();
    const existing = await family.call("tags.create", { tag: { name: "Existing Tag" } });
    const csv = [
      HEADER,
      row(
        "New tag rule",
        [{ condition_type: "transaction_name", operator: "like", value: "coffee" }],
        [{ action_type: "set_transaction_tags", value: "Coffee Tag" }],
      ),
      row(
        "Tag rule",
        [{ condition_type: "transaction_name", operator: "like", value: "test" }],
        [{ action_type: "set_transaction_tags", value: "Existing Tag" }],
      ),
    ].join("\n");
    expect((await published(family, "RuleImport", csv)).result).toMatchObject({ rules_created: 2, tags_created: 1 });
    const tags = await finance.db.tag.findMany({ where: { familyId: family.familyId }, orderBy: { name: "asc" } });
    expect(tags.map((tag) => tag.name)).toEqual(["Coffee Tag", "Existing Tag"]);
    expect((await ruleNamed(family, "New tag rule")).actions[0]).toMatchObject({ action_type: "set_transaction_tags", value: tags[0]?.id });
    expect((await ruleNamed(family, "Tag rule")).actions[0]).toMatchObject({ action_type: "set_transaction_tags", value: existing.id });
  });

  it("finds or makes merchants named in conditions and actions, and keeps a value that is already the family's id (Sure's resolve_import_condition_value and resolve_import_action_value)", async () => {
    const family = await ruleFamily();
    const wholeFoods = await family.call("merchants.create", { merchant: { name: "Whole Foods" } });
    const csv = [
      HEADER,
      row(
        "Merchants",
        [
          { condition_type: "transaction_merchant", operator: "=", value: "Whole Foods" },
          { condition_type: "transaction_category", operator: "=", value: family.groceries.id },
        ],
        [{ action_type: "set_transaction_merchant", value: "Corner Market" }],
      ),
    ].join("\n");
    expect((await published(family, "RuleImport", csv)).result).toEqual({
      rules_created: 1,
      rules_updated: 0,
      categories_created: 0,
      merchants_created: 1,
      tags_created: 0,
    });
    const market = await finance.db.merchant.findUniqueOrThrow({ where: { familyId_name: { familyId: family.familyId, name: "Corner Market" } } });
    const rule = await ruleNamed(family, "Merchants");
    expect(rule.conditions.map((condition) => condition.value)).toEqual([wholeFoods.id, family.groceries.id]);
    expect(rule.actions[0]?.value).toBe(market.id);
  });

  it("replaces a named rule's conditions and actions when imported again (Sure: 'updates existing rule when re-importing with same name')", async () => {
    const family = await ruleFamily();
    await published(family, "RuleImport", SURE_CSV);
    const original = await ruleNamed(family, "Categorize groceries");
    expect(original.active).toBe(true);

    const csv = [
      HEADER,
      `"Categorize groceries","transaction",false,2024-02-01,"[{"condition_type":"transaction_name","operator":"like","value":"market"}]","[{"action_type":"exclude_transaction"}]"`,
    ].join("\n");
    expect((await published(family, "RuleImport", csv)).result).toMatchObject({ rules_created: 0, rules_updated: 1 });
    expect(await rulesOf(family)).toHaveLength(2);
    const updated = await ruleNamed(family, "Categorize groceries");
    expect(updated).toMatchObject({ id: original.id, active: false, effective_date: "2024-02-01" });
    expect(updated.conditions.map((condition) => condition.value)).toEqual(["market"]);
    expect(updated.actions.map((action) => action.action_type)).toEqual(["exclude_transaction"]);
    expect(await finance.db.ruleCondition.count({ where: { rule: { familyId: family.familyId } } })).toBe(2);
  });

  it("makes a name on several rows of one file one rule, as its last row leaves it (Sure's find_or_initialize_by, row after row)", async () => {
    const family = await ruleFamily();
    const csv = [
      HEADER,
      row(
        "Twice",
        [{ condition_type: "transaction_name", operator: "like", value: "first" }],
        [{ action_type: "set_transaction_category", value: "First only" }],
      ),
      row("", [{ condition_type: "transaction_name", operator: "like", value: "nameless" }], [{ action_type: "exclude_transaction" }]),
      row("Twice", [{ condition_type: "transaction_name", operator: "like", value: "second" }], [{ action_type: "exclude_transaction" }], "false"),
      row("", [{ condition_type: "transaction_name", operator: "like", value: "nameless" }], [{ action_type: "exclude_transaction" }]),
    ].join("\n");
    // Row 1's category is made while its row is read, as Sure makes it before replacing the rule.
    expect((await published(family, "RuleImport", csv)).result).toEqual({
      rules_created: 3,
      rules_updated: 0,
      categories_created: 1,
      merchants_created: 0,
      tags_created: 0,
    });
    const rules = await rulesOf(family);
    expect(rules.map((rule) => rule.name)).toEqual(["Twice", null, null]);
    expect(rules[0]).toMatchObject({ active: false, conditions: [{ value: "second" }], actions: [{ action_type: "exclude_transaction" }] });
  });

  it("reads wrapped JSON payloads of legacy rows and resolves their names (Sure: 'imports wrapped JSON payloads from legacy rows')", async () => {
    const family = await ruleFamily();
    const conditions = JSON.stringify(JSON.stringify([{ condition_type: "transaction_name", operator: "like", value: "legacy grocery" }]));
    const actions = JSON.stringify(JSON.stringify([{ action_type: "set_transaction_category", value: "Groceries" }]));
    await published(family, "RuleImport", [HEADER, csvLine(["Wrapped payload rule", "transaction", "true", "", conditions, actions])].join("\n"));
    const rule = await ruleNamed(family, "Wrapped payload rule");
    expect(rule.conditions[0]?.value).toBe("legacy grocery");
    expect(rule.actions[0]?.value).toBe(family.groceries.id);
  });

  it("refuses to publish rows Sure refuses while importing: resource type, no action, bad JSON (Sure: 'validates resource_type', 'validates at least one action exists', 'handles invalid JSON in conditions or actions')", async () => {
    const family = await ruleFamily();
    const csv = [
      HEADER,
      `"Invalid rule","invalid_type",true,,"[{""condition_type"":""transaction_name"",""operator"":""like"",""value"":""test""}]","[{""action_type"":""exclude_transaction""}]"`,
      `"No actions rule","transaction",true,,"[{""condition_type"":""transaction_name"",""operator"":""like"",""value"":""test""}]","[]"`,
      `"Bad JSON rule","transaction",true,,"invalid json","[{""action_type"":""exclude_transaction""}]"`,
    ].join("\n");
    const refused = await expectAppError(family.call("imports.create", { type: "RuleImport", raw_file_content: csv, publish: true }), "not_publishable");
    const rows = await family.call("imports.rows", { id: refused.importId });
    expect(rows.data.map((r: { errors: string[] }) => r.errors.join(" "))).toEqual([
      "Unsupported resource type: invalid_type",
      "Rule must have at least one action",
      expect.stringMatching(/^Invalid JSON in conditions/),
    ]);
    expect(await rulesOf(family)).toEqual([]);
  });

  it("fails on a rule Hearth's validation refuses, naming the row and the reason, and writes nothing (rules.create's checks)", async () => {
    const family = await ruleFamily();
    const csv = [
      HEADER,
      row(
        "Fine",
        [{ condition_type: "transaction_name", operator: "like", value: "coffee" }],
        [{ action_type: "set_transaction_category", value: "Coffee Shops" }],
      ),
      row("AI", [{ condition_type: "transaction_name", operator: "like", value: "amazon" }], [{ action_type: "auto_categorize" }]),
    ].join("\n");
    expect(await failed(family, "RuleImport", csv)).toBe("Row 2: actions[0].action_type: Unsupported action type: auto_categorize");
    const badOperator = [
      HEADER,
      row("Tilde", [{ condition_type: "transaction_amount", operator: "~", value: "5" }], [{ action_type: "exclude_transaction" }]),
    ].join("\n");
    expect(await failed(family, "RuleImport", badOperator)).toMatch(/^Row 1: conditions\[0\]\.operator: Unsupported operator: ~ for transaction_amount/);
    // An inherited key is no action type (nor a reference to resolve).
    const oddType = [
      HEADER,
      row("Odd", [{ condition_type: "transaction_name", operator: "like", value: "x" }], [{ action_type: "toString", value: "y" }]),
    ].join("\n");
    expect(await failed(family, "RuleImport", oddType)).toBe("Row 1: actions[0].action_type: Unsupported action type: toString");
    // Row 1's rule and the category it made are gone with the failure.
    expect(await rulesOf(family)).toEqual([]);
    await expect(categoryNamed(family.familyId, "Coffee Shops")).rejects.toThrow();
  });

  it("fails when a tag condition or an account names nothing the family has (Sure makes neither), writing nothing", async () => {
    const family = await ruleFamily();
    const tagCondition = [
      HEADER,
      row("Tagged", [{ condition_type: "transaction_tag", operator: "=", value: "Nope" }], [{ action_type: "set_transaction_category", value: "New one" }]),
    ].join("\n");
    expect(await failed(family, "RuleImport", tagCondition)).toBe('Row 1: transaction_tag: the family has no tag named "Nope"');
    const account = [
      HEADER,
      row(
        "Transfers",
        [{ condition_type: "transaction_name", operator: "like", value: "card" }],
        [{ action_type: "set_as_transfer_or_payment", value: "Visa" }],
      ),
    ].join("\n");
    expect(await failed(family, "RuleImport", account)).toBe('Row 1: set_as_transfer_or_payment: the family has no account named "Visa"');
    const foreignId = [
      HEADER,
      row(
        "Foreign",
        [{ condition_type: "transaction_name", operator: "like", value: "x" }],
        [{ action_type: "set_transaction_category", value: "0190a0a0-0000-7000-8000-000000000000" }],
      ),
    ].join("\n");
    expect(await failed(family, "RuleImport", foreignId)).toBe(
      "Row 1: set_transaction_category: no category of the family has the id 0190a0a0-0000-7000-8000-000000000000",
    );
    expect(await rulesOf(family)).toEqual([]);
    await expect(categoryNamed(family.familyId, "New one")).rejects.toThrow();

    // Once the tag and the account exist, the names resolve.
    const tag = await family.call("tags.create", { tag: { name: "Nope" } });
    const visa = await family.call("accounts.create", { account: { name: "VISA", account_type: "credit_card", balance: 0 } });
    await published(family, "RuleImport", tagCondition);
    await published(family, "RuleImport", account);
    expect((await ruleNamed(family, "Tagged")).conditions[0]?.value).toBe(tag.id);
    expect((await ruleNamed(family, "Transfers")).actions[0]?.value).toBe(visa.id);
  });

  it("keeps the family within 200 rules (a named rule replaced takes no room) and a rule within 40 conditions", async () => {
    const family = await ruleFamily();
    await finance.db.rule.createMany({ data: Array.from({ length: 199 }, (_, i) => ({ familyId: family.familyId, name: `Existing ${i}` })) });
    const exclude = [{ action_type: "exclude_transaction" }];
    const byName = [{ condition_type: "transaction_name", operator: "like", value: "x" }];
    const csv = [HEADER, row("Existing 0", byName, exclude), row("One more", byName, exclude), row("Too many", byName, exclude)].join("\n");
    expect(await failed(family, "RuleImport", csv)).toBe("Row 3: A family can have at most 200 rules");
    expect(await finance.db.rule.count({ where: { familyId: family.familyId } })).toBe(199);
    expect(await finance.db.ruleAction.count({ where: { rule: { familyId: family.familyId } } })).toBe(0);

    const compound = { condition_type: "compound", operator: "or", sub_conditions: Array.from({ length: 14 }, (_, i) => ({ ...byName[0], value: `v${i}` })) };
    const wide = [HEADER, row("Wide", [compound, compound, compound], exclude)].join("\n");
    expect(await failed(family, "RuleImport", wide)).toBe(
      "Row 1: conditions: A rule can have at most 40 conditions in all, sub-conditions included (this one has 42)",
    );
  });
});

describe("revert", () => {
  it("removes the categories, merchants and rules each import made, keeping a category another import's rule names (its import id cleared)", async () => {
    const family = newFamily();
    const categories = await published(family, "CategoryImport", "name\nKept\nGone");
    const merchants = await published(family, "MerchantImport", "name\nGone Merchant");
    const rules = await published(
      family,
      "RuleImport",
      [
        "name,resource_type,active,effective_date,conditions,actions",
        csvLine([
          "Gone rule",
          "transaction",
          "true",
          "",
          JSON.stringify([{ condition_type: "transaction_merchant", operator: "=", value: "Made Merchant" }]),
          JSON.stringify([{ action_type: "set_transaction_category", value: "Kept" }]),
        ]),
      ].join("\n"),
    );
    expect(rules.result).toMatchObject({ rules_created: 1, merchants_created: 1, categories_created: 0 });
    expect(await categoryNamed(family.familyId, "Kept")).toMatchObject({ importId: categories.id });
    expect(
      await finance.db.merchant.findMany({ where: { familyId: family.familyId }, select: { name: true, importId: true }, orderBy: { name: "asc" } }),
    ).toEqual([
      { name: "Gone Merchant", importId: merchants.id },
      { name: "Made Merchant", importId: rules.id },
    ]);

    for (const detail of [categories, merchants]) {
      expect(ImportResponseSchema.parse(await family.call("imports.revert", { id: detail.id })).data.status).toBe("pending");
    }
    // The rule, another import's, names Kept: it stays, the family's own now.
    expect((await categoriesOf(family.familyId)).map((c) => [c.name, c.importId])).toEqual([["Kept", null]]);
    expect((await finance.db.merchant.findMany({ where: { familyId: family.familyId } })).map((m) => m.name)).toEqual(["Made Merchant"]);

    expect(ImportResponseSchema.parse(await family.call("imports.revert", { id: rules.id })).data.status).toBe("pending");
    expect(await finance.db.rule.count({ where: { familyId: family.familyId } })).toBe(0);
    expect(await finance.db.merchant.count({ where: { familyId: family.familyId } })).toBe(0);
    expect((await categoriesOf(family.familyId)).map((c) => c.name)).toEqual(["Kept"]);
  });
});
