import { describe, expect, it } from "vitest";
import { understand, type IntentKind } from "../src/assistant/builtin/intent";
import { findNames } from "../src/assistant/builtin/name-match";
import { INTRODUCERS, QUESTION_WORDS } from "../src/assistant/builtin/intent";
import { MAX_QUESTION_CHARS, stem, wordsOf } from "../src/assistant/builtin/words";

const today = "2026-11-15";

describe("words", () => {
  it("lower-cases, drops possessives and splits on anything that is not a letter or digit", () => {
    expect(wordsOf("How much at Amazon's store?")).toEqual(["how", "much", "at", "amazon", "store"]);
    expect(wordsOf("What’s my NET-WORTH?!")).toEqual(["what", "my", "net", "worth"]);
    expect(wordsOf("Don't spend at H&M / 7-Eleven")).toEqual(["dont", "spend", "at", "h", "and", "m", "7", "eleven"]);
    expect(wordsOf("Café Zoë, ｆｕｌｌｗｉｄｔｈ")).toEqual(["café", "zoë", "fullwidth"]);
    expect(wordsOf("")).toEqual([]);
    expect(wordsOf("🎉💸 ... ???")).toEqual([]);
  });

  it("reads only the start of a long text", () => {
    const words = wordsOf(`${"a ".repeat(MAX_QUESTION_CHARS)}netflix`);
    expect(words).not.toContain("netflix");
    expect(words.length).toBe(MAX_QUESTION_CHARS / 2);
  });

  it("stems plurals so both sides meet", () => {
    expect(["groceries", "grocery", "bills", "taxes", "boxes", "utilities", "gas", "bus", "status", "glass"].map(stem)).toEqual([
      "grocery",
      "grocery",
      "bill",
      "tax",
      "box",
      "utility",
      "gas",
      "bus",
      "status",
      "glass",
    ]);
  });
});

describe("understanding questions", () => {
  it.each<[string, IntentKind]>([
    ["What's my net worth?", "net_worth"],
    ["what is our networth", "net_worth"],
    ["How much am I worth?", "net_worth"],
    ["What are our total assets and liabilities?", "net_worth"],
    ["What's the balance of my checking account?", "account_balance"],
    ["How much is in savings?", "account_balance"],
    ["How much do I have in my Chase account", "account_balance"],
    ["What are my account balances", "account_balance"],
    ["How much do I owe on the Visa?", "account_balance"],
    ["How much did we spend on groceries last month?", "spending"],
    ["What did I spend at Amazon this year", "spending"],
    ["Spending tagged vacation in March", "spending"],
    ["How much have we paid for rent in 2025?", "spending"],
    ["Where did my money go last month?", "spending"],
    ["groceries last month", "spending"],
    ["How much on dining in March?", "spending"],
    ["What was our income this year?", "income"],
    ["How much did I earn last month", "income"],
    ["When did I get paid?", "income"],
    ["How much did we save last month?", "cash_flow"],
    ["What was our income and spending this year", "cash_flow"],
    ["How are we doing on the budget?", "budget"],
    ["Am I over budget on groceries?", "budget"],
    ["Budget status for October", "budget"],
    ["What bills are coming up?", "upcoming_bills"],
    ["Any upcoming bills next week?", "upcoming_bills"],
    ["Which subscriptions do we pay?", "upcoming_bills"],
    ["What were my largest expenses last month?", "largest_expenses"],
    ["Top 3 purchases this year", "largest_expenses"],
    ["What were the most expensive things I bought?", "largest_expenses"],
    ["biggest transactions in March", "largest_expenses"],
    ["help", "help"],
    ["hello", "help"],
    ["What's the weather like?", "help"],
    ["Tell me a joke", "help"],
    ["", "help"],
  ])("%s → %s", (question, kind) => {
    expect(understand(question, today).kind).toBe(kind);
  });

  it("carries the period, blanking its words for the names", () => {
    const intent = understand("How much did we spend on groceries last month?", today);
    expect(intent.period).toMatchObject({ start: "2026-10-01", end: "2026-10-31", label: "last month" });
    expect(intent.subjectWords).toEqual(["how", "much", "did", "we", "spend", "on", "groceries", null, null]);
    expect(intent.mentionedName).toBe("groceries");
  });

  it("has no period when none is named", () => {
    expect(understand("What's my net worth?", today).period).toBeNull();
  });

  it("hints at the kind of name from the wording", () => {
    expect(understand("spent at Costco in March", today).dimensionHint).toBe("merchant");
    expect(understand("spending tagged vacation", today).dimensionHint).toBe("tag");
    expect(understand("spending in the dining category", today).dimensionHint).toBe("category");
    expect(understand("spending on dining", today).dimensionHint).toBeNull();
  });

  it("keeps the words after the first introducer as the mentioned name", () => {
    expect(understand("How much did I spend on pizza and beer last month", today).mentionedName).toBe("pizza and beer");
    expect(understand("How much did I spend at the Apple Store", today).mentionedName).toBe("apple store");
    expect(understand("How much did I spend in total on pizza", today).mentionedName).toBe("pizza");
    expect(understand("How much did I spend last month", today).mentionedName).toBeNull();
  });

  it("reads how many largest expenses", () => {
    expect(understand("top 3 expenses", today).count).toBe(3);
    expect(understand("my ten biggest purchases", today).count).toBe(10);
    expect(understand("largest 7 transactions", today).count).toBe(7);
    expect(understand("top 500 expenses", today).count).toBe(20);
    expect(understand("largest expenses", today).count).toBeNull();
  });
});

describe("hostile questions", () => {
  const hostile = [
    "a".repeat(10_000),
    "on ".repeat(10_000),
    "'".repeat(10_000),
    "a'".repeat(10_000),
    "last ".repeat(5_000),
    "9".repeat(10_000),
    `${"💸".repeat(5_000)} net worth`,
    "\u0000\u200b\u202e\ufeff",
    "𝓗𝓸𝔀 𝓶𝓾𝓬𝓱 𝓭𝓲𝓭 𝓘 𝓼𝓹𝓮𝓷𝓭",
    "ＳＰＥＮＴ ＯＮ ＧＲＯＣＥＲＩＥＳ",
    "ßpent straße İstanbul ǅ",
    "\ud800 lone surrogate \udfff",
    " ".repeat(10_000),
  ];

  it.each(hostile.map((text) => [text.slice(0, 30), text]))("answers %j quickly without throwing", (_label, question) => {
    const started = performance.now();
    const intent = understand(question, today);
    expect(performance.now() - started).toBeLessThan(50);
    expect(intent.subjectWords.length).toBeLessThanOrEqual(MAX_QUESTION_CHARS);
  });

  it("still reads a question in full-width letters", () => {
    expect(understand("ＳＰＥＮＴ ＯＮ ＧＲＯＣＥＲＩＥＳ", today)).toMatchObject({ kind: "spending", mentionedName: "groceries" });
  });

  it("matches names in linear time even with many names and a long question", () => {
    const names = Array.from({ length: 500 }, (_, index) => ({ id: String(index), name: `Shop ${"x ".repeat(index % 20)}${index}` }));
    const words = wordsOf("shop x ".repeat(1_000));
    const started = performance.now();
    findNames(words, names);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("finding names", () => {
  const categories = [
    { id: "c1", name: "Groceries" },
    { id: "c2", name: "Food & Drink" },
    { id: "c3", name: "Food" },
    { id: "c4", name: "Income" },
    { id: "c5", name: "🎉" },
  ];
  const merchants = [
    { id: "m1", name: "Amazon" },
    { id: "m2", name: "Amazon Prime Video" },
    { id: "m3", name: "Trader Joe's" },
    { id: "m4", name: "AMAZON" },
    { id: "m5", name: "H&M" },
  ];
  const match = (question: string, items: { id: string; name: string }[]) =>
    findNames(understand(question, today).subjectWords, items, { weakWords: QUESTION_WORDS, introducers: INTRODUCERS }).map((found) => found.item.id);

  it("matches whole words in any case, plural or singular", () => {
    expect(match("spent on GROCERY last month", categories)).toEqual(["c1"]);
    expect(match("spent on groceries", categories)).toEqual(["c1"]);
    expect(match("spent at trader joes", merchants)).toEqual(["m3"]);
    expect(match("spent at Trader Joe’s", merchants)).toEqual(["m3"]);
    expect(match("spent at h&m", merchants)).toEqual(["m5"]);
    expect(match("spent at H & M", merchants)).toEqual(["m5"]);
  });

  it("prefers the longest name", () => {
    expect(match("how much on food and drink", categories)).toEqual(["c2"]);
    expect(match("how much on food", categories)).toEqual(["c3"]);
    expect(match("amazon prime video this year", merchants)).toEqual(["m2"]);
  });

  it("returns every equally long name (the caller calls it ambiguous)", () => {
    expect(match("spent at Amazon's", merchants)).toEqual(["m1", "m4"]);
  });

  it("does not take part of a word", () => {
    expect(match("spent on foodstuff", categories)).toEqual([]);
    expect(match("spent at amazonia", merchants)).toEqual([]);
  });

  it("lets a name made of question words count only when led in", () => {
    expect(match("what was my income last month", categories)).toEqual([]);
    expect(match("how much from income last month", categories)).toEqual(["c4"]);
  });

  it("skips words taken by the period and names without words", () => {
    const months = [{ id: "x", name: "March" }];
    expect(match("spent in March", months)).toEqual([]);
    expect(match("spent on 🎉", categories)).toEqual([]);
  });
});
