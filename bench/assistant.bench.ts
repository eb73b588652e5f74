// `npm run bench` (the assistant) on the family of about a million transactions:
// 1. the built-in assistant ("hearth-builtin"): BENCH_QUESTIONS (100) questions one after another,
//    a mix of every kind it understands, in 5 chats; p95 < 500 ms from the POST to the answer's `done`
//    event, and to the answer stored complete (the done event can trail it by the stream's 8 s wait);
//    p50/p95/max per kind; the baseline is the time the same answers spent waiting on finance (the
//    chat service's calls, by the service kit's tRPC spans), and GET /api/v1/balance_sheet;
// 2. a model behind an OpenAI-compatible endpoint (the local test server, answering at once):
//    answers with 1 and 3 tool-call round trips against answers with none: each round trip adds
//    < 20 ms (the tool's own finance time included, and shown separately).
// BENCH_LEDGER_PURCHASES (default 1,000,000) sizes the family; BENCH_ROUND_TRIPS (30) the repetitions of 2.
import { createOpenAiCompatibleProvider } from "@hearth/chat/assistant/openai";
import { randomSource } from "@hearth/demo-seed";
import { runRecurringScan } from "@hearth/finance/recurring";
import { completionTurn, startChatCompletionsServer, type CompletionRequestBody, type RecordedCompletionRequest } from "@hearth/test-kit";
import { answerClient, type TimedAnswer } from "./answer-stream";
import { SEEDED_STATE, startLargeFamily } from "./large-family";
import { recordFinanceCalls, waitedMs, type FinanceCallSpan } from "./finance-spans";
import { saveSection, type BenchFigure } from "./report";
import { percentile, sequentialGets } from "./sequential-gets";

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 100);
const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 30);
const CHATS = 5;
const MODEL_KEY = "sk-bench-provider-key";
const TEST_MODEL = "bench-gpt";
const fmt = (ms: number) => ms.toFixed(1).padStart(7);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 50);

// The provider's script: as many rounds of one get_accounts call as the question's "rounds=N" asks, then the text, all at once.
const roundsAsked = (body: CompletionRequestBody) => {
  const question = [...body.messages].reverse().find((message) => message["role"] === "user");
  return Number(/rounds=(\d+)/.exec(String(question?.["content"] ?? ""))?.[1] ?? 0);
};
// Before the system starts: the services' finance calls are timed by their own spans.
const financeCalls = recordFinanceCalls();
const completions = await startChatCompletionsServer({
  apiKey: MODEL_KEY,
  script: (body) => {
    const done = body.messages.filter((message) => message["role"] === "tool").length;
    return done < roundsAsked(body)
      ? completionTurn.toolCalls({ id: `call_${done}`, name: "get_accounts", arguments: {} })
      : completionTurn.text("You have eight accounts.");
  },
});
const { system, db, family, transactions, stop, headers, call, quiet } = await startLargeFamily("assistant", {
  providers: [createOpenAiCompatibleProvider({ baseUrl: completions.baseUrl, apiKey: MODEL_KEY, models: [TEST_MODEL], timeoutMs: 30_000 })],
  replyTimeoutMs: 60_000,
});
try {
  const answers = answerClient(system.url, family.token);
  const figures: BenchFigure[] = [];

  // What the budget and bills questions need: this month's budget with limits, and the recurring bills.
  const today = new Date().toISOString().slice(0, 10);
  const budget = await call("POST", "/api/v1/budgets", { budget: { start_date: `${today.slice(0, 7)}-01` } });
  await call("PATCH", `/api/v1/budgets/${budget.id}`, { budget: { budgeted_spending: "5000", expected_income: "6000" } });
  const lines = (await call("GET", `/api/v1/budget_categories?budget_id=${budget.id}&per_page=100`)).budget_categories as { id: string }[];
  for (const line of lines.slice(0, 6)) await call("PATCH", `/api/v1/budget_categories/${line.id}`, { budget_category: { budgeted_spending: "400" } });
  await quiet();
  if ((await call("GET", "/api/v1/recurring_transactions")).recurring_transactions.length === 0) await runRecurringScan(db, family.familyId);
  await quiet();

  // 1. The built-in assistant. A month wholly past for "in <month>" (three months back).
  const named = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  named.setUTCMonth(named.getUTCMonth() - 3);
  const month = named.toLocaleString("en", { month: "long", timeZone: "UTC" });
  const KINDS: { kind: string; tools: string[]; questions: string[] }[] = [
    { kind: "net worth", tools: ["get_balance_sheet"], questions: ["What is our net worth?", "How much are we worth?"] },
    {
      kind: "balance of an account",
      tools: ["get_accounts"],
      questions: ["What is the balance of Everyday Checking?", "How much is in our Rainy Day Savings account?"],
    },
    {
      kind: "spending on a category last month",
      tools: ["get_categories", "get_income_statement"],
      questions: ["How much did we spend on groceries last month?", "What did we spend on Food & Drink last month?"],
    },
    {
      kind: "spending on a category this year",
      tools: ["get_categories", "get_income_statement"],
      questions: ["How much did we spend on groceries this year?", "How much have we spent on transportation this year?"],
    },
    {
      kind: "spending at a merchant this year",
      tools: ["get_merchants", "get_income_statement"],
      questions: ["How much did we spend at Amazon this year?", "How much have we spent at Target this year?"],
    },
    {
      kind: `spending on a tag in a named month (${month})`,
      tools: ["get_tags", "get_income_statement"],
      questions: [`How much did we spend tagged Vacation in ${month}?`, `How much did we spend on things tagged Kids in ${month}?`],
    },
    { kind: "income this year", tools: ["get_income_statement"], questions: ["What was our income this year?", "How much did we earn this year?"] },
    { kind: "budget status", tools: ["get_budget"], questions: ["How are we doing on our budget this month?", "Are we over budget?"] },
    { kind: "upcoming bills", tools: ["get_recurring_transactions"], questions: ["What bills are coming up?", "Which bills are due soon?"] },
    {
      kind: "largest expenses last month",
      tools: ["get_transactions"],
      questions: ["What were our 5 largest expenses last month?", "What were the biggest purchases last month?"],
    },
  ];

  /** From the answer's stored rows, ms after the POST was sent: claimed by the worker, each tool call recorded, the answer stored complete. */
  interface StoredTimes {
    claimedMs: number;
    toolCallsMs: number[];
    storedMs: number;
  }
  const storedTimesOf = async (answer: TimedAnswer): Promise<StoredTimes> => {
    const row = await system.db.chat.chatMessage.findUniqueOrThrow({
      where: { id: answer.answerId },
      select: { startedAt: true, updatedAt: true, toolCalls: { select: { createdAt: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
    });
    return {
      claimedMs: row.startedAt!.getTime() - answer.sentAt,
      toolCallsMs: row.toolCalls.map((toolCall) => toolCall.createdAt.getTime() - answer.sentAt),
      storedMs: row.updatedAt.getTime() - answer.sentAt,
    };
  };
  interface Sample {
    kind: string;
    question: string;
    answer: TimedAnswer;
    /** The finance calls the chat service made for the answer. */
    finance: FinanceCallSpan[];
    stored: StoredTimes;
  }
  const samples: Sample[] = [];
  const askBuiltin = async (chatId: string, kind: (typeof KINDS)[number], question: string): Promise<Sample> => {
    financeCalls.take();
    const answer = await answers.ask(chatId, question, "hearth-builtin");
    if (answer.status !== "complete") throw new Error(`"${question}" ended ${answer.status}: ${answer.error}`);
    const used = answer.toolCalls.map(({ call: toolCall }) => toolCall.function_name);
    if (!kind.tools.every((tool) => used.includes(tool))) throw new Error(`"${question}" called ${used.join(", ") || "no tool"}: ${answer.text}`);
    const refused = answer.toolCalls.find(({ call: toolCall }) => toolCall.function_result && "error" in toolCall.function_result);
    if (refused) throw new Error(`"${question}": ${refused.call.function_name} refused: ${JSON.stringify(refused.call.function_result)}`);
    return { kind: kind.kind, question, answer, finance: financeCalls.take(), stored: await storedTimesOf(answer) };
  };
  const financeOf = (sample: Sample) => waitedMs(sample.finance);
  /** Each procedure's client time (its count per answer when more than one), e.g. "insights.incomeStatement 216.3". */
  const byProcedure = (of: readonly Sample[], statistic: (values: number[]) => number) =>
    [...new Set(of.flatMap((sample) => sample.finance.filter((span) => span.side === "client").map((span) => span.procedure)))].map((procedure) => {
      const spans = of.flatMap((sample) => sample.finance.filter((span) => span.side === "client" && span.procedure === procedure));
      const handler = of.flatMap((sample) => sample.finance.filter((span) => span.side === "server" && span.procedure === procedure));
      const count = spans.length > of.length ? ` x${(spans.length / of.length).toFixed(1)}` : "";
      const ms = (list: FinanceCallSpan[]) => statistic(list.map((span) => span.endMs - span.startMs)).toFixed(1);
      return `${procedure}${count} ${ms(spans)}${handler.length > 0 ? ` (handler ${ms(handler)})` : ""}`;
    });

  // Warm-up: each kind once in a chat of its own (first use of each path and query), not counted.
  const warmChat = await answers.newChat("Warm-up");
  for (const kind of KINDS) {
    const sample = await askBuiltin(warmChat, kind, kind.questions[0]!);
    console.log(`warm-up  ${fmt(sample.answer.totalMs)} ms  ${sample.question}\n           ${sample.answer.text.split("\n")[0]}`);
  }
  // The questions: rounds through every kind, each round in its own order, CHATS chats one after another.
  const order: { kind: (typeof KINDS)[number]; question: string }[] = [];
  const random = randomSource(7);
  for (let round = 0; order.length < QUESTIONS; round++) {
    const shuffled = [...KINDS].sort(() => random.next() - 0.5);
    for (const kind of shuffled) if (order.length < QUESTIONS) order.push({ kind, question: kind.questions[round % kind.questions.length]! });
  }
  const perChat = Math.ceil(QUESTIONS / CHATS);
  let chatId = "";
  for (const [index, { kind, question }] of order.entries()) {
    if (index % perChat === 0) chatId = await answers.newChat(`Questions ${index / perChat + 1}`);
    const sample = await askBuiltin(chatId, kind, question);
    samples.push(sample);
    const tools = sample.answer.toolCalls.map(({ call: toolCall }, at) => `${toolCall.function_name}@${sample.stored.toolCallsMs[at]}`).join(" ");
    const finance = byProcedure([sample], median).join(", ");
    console.log(
      `${String(index + 1).padStart(3)} ${fmt(sample.answer.totalMs)} ms  ${question}  [stored rows, ms after the POST: 201@${sample.answer.postMs.toFixed(0)} claimed@${sample.stored.claimedMs} ${tools} complete@${sample.stored.storedMs}; finance calls: ${finance}]`,
    );
  }

  const totals = sorted(samples.map((sample) => sample.answer.totalMs));
  const financeTotals = sorted(samples.map(financeOf));
  const overheads = sorted(samples.map((sample) => sample.stored.storedMs - financeOf(sample)));
  const stored = sorted(samples.map((sample) => sample.stored.storedMs));
  // The done event long after the answer was stored: the stream waited out a progress read (8 s) instead of being woken.
  const stalls = samples.filter((sample) => sample.answer.totalMs - sample.stored.storedMs > 1000);
  const p95 = percentile(totals, 95);
  const sheet = await sequentialGets(`${system.url}/api/v1/balance_sheet`, headers, 100);
  console.log(
    `\n${samples.length} questions: POST -> done p50 ${fmt(percentile(totals, 50))} p95 ${fmt(p95)} max ${fmt(totals.at(-1)!)} ms (target p95 < 500 ms)`,
  );
  console.log(
    `  waiting on finance (the chat service's calls): p50 ${fmt(percentile(financeTotals, 50))} p95 ${fmt(percentile(financeTotals, 95))} ms; the rest (POST to stored complete minus that: gateway, chat service, worker): p50 ${fmt(percentile(overheads, 50))} p95 ${fmt(percentile(overheads, 95))} ms`,
  );
  console.log(
    `  POST -> answer stored complete (its row's updated_at): p50 ${fmt(percentile(stored, 50))} p95 ${fmt(percentile(stored, 95))} max ${fmt(stored.at(-1)!)} ms; done event > 1 s after that: ${stalls.length} (${stalls.map((sample) => `"${sample.question}" ${(sample.answer.totalMs - sample.stored.storedMs).toFixed(0)} ms late`).join(", ") || "none"})`,
  );
  console.log(`  GET /api/v1/balance_sheet through the gateway: p50 ${fmt(percentile(sheet.times, 50))} p95 ${fmt(percentile(sheet.times, 95))} ms\n`);
  figures.push({
    name: `p95 of ${samples.length} questions to hearth-builtin, POST to the stream's done event (p50 ${percentile(totals, 50).toFixed(0)} ms, max ${totals.at(-1)!.toFixed(0)} ms)`,
    value: p95,
    unit: "ms",
    baseline: { name: "p95 of the same answers' time waiting on finance", value: percentile(financeTotals, 95) },
    goal: { text: "< 500 ms", met: p95 < 500 },
  });
  figures.push({
    name: `p95 of the same questions, POST to the answer stored complete (its row's updated_at; p50 ${percentile(stored, 50).toFixed(0)} ms, max ${stored.at(-1)!.toFixed(0)} ms; ${stalls.length} done event(s) came > 1 s after it)`,
    value: percentile(stored, 95),
    unit: "ms",
    baseline: { name: "p95 of the same answers' time waiting on finance", value: percentile(financeTotals, 95) },
    goal: { text: "< 500 ms", met: percentile(stored, 95) < 500 },
  });
  figures.push({
    name: "median of each answer's time beyond its finance calls (POST to stored complete minus the time waiting on finance: gateway, chat service, worker, tool plumbing)",
    value: percentile(overheads, 50),
    unit: "ms",
    baseline: { name: "GET /api/v1/balance_sheet through the gateway, p50", value: percentile(sheet.times, 50) },
  });

  console.log("per kind (POST -> stored complete, ms)             n     p50     p95     max   finance calls (median client time, finance's handler, ms)");
  for (const kind of KINDS) {
    const ofKind = samples.filter((sample) => sample.kind === kind.kind);
    if (ofKind.length === 0) continue;
    const times = sorted(ofKind.map((sample) => sample.stored.storedMs));
    const events = sorted(ofKind.map((sample) => sample.answer.totalMs));
    const financeTimes = sorted(ofKind.map(financeOf));
    const byTool = byProcedure(ofKind, median);
    const phase = (of: (sample: Sample) => number) => median(ofKind.map(of)).toFixed(0);
    console.log(
      `${kind.kind.padEnd(48)} ${String(ofKind.length).padStart(3)} ${fmt(percentile(times, 50))} ${fmt(percentile(times, 95))} ${fmt(times.at(-1)!)}   ${byTool.join(", ")}`,
    );
    console.log(
      `${"".padEnd(52)}medians after the POST: 201 ${phase((sample) => sample.answer.postMs)}, claimed ${phase((sample) => sample.stored.claimedMs)}, first tool call recorded ${phase((sample) => sample.stored.toolCallsMs[0]!)}, last ${phase((sample) => sample.stored.toolCallsMs.at(-1)!)}, stored complete ${phase((sample) => sample.stored.storedMs)} ms; done event p50 ${fmt(percentile(events, 50))} p95 ${fmt(percentile(events, 95))} ms`,
    );
    figures.push({
      name: `p95 of "${kind.kind}", POST to stored complete (n=${ofKind.length}; p50 ${percentile(times, 50).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms; to the done event p95 ${percentile(events, 95).toFixed(0)} ms; finance calls, median ms: ${byTool.join(", ")})`,
      value: percentile(times, 95),
      unit: "ms",
      baseline: { name: "p95 of its time waiting on finance", value: percentile(financeTimes, 95) },
    });
  }

  // 2. Tool-call round trips through the OpenAI-compatible provider: the same question answered at
  // once with 0, 1 or 3 rounds of one get_accounts call, interleaved, each repetition in a new chat.
  // Timed to the answer stored complete (its row), which the stream's done event can trail by 8 s.
  const ROUNDS = [0, 1, 3] as const;
  const trips = { 0: [] as number[], 1: [] as number[], 3: [] as number[] };
  const tripEvents = { 0: [] as number[], 1: [] as number[], 3: [] as number[] };
  const gaps: number[] = [];
  const providerOwn: number[] = [];
  const accountsFinance: number[] = [];
  for (let repetition = -3; repetition < ROUND_TRIPS; repetition++) {
    const tripChat = await answers.newChat(`Round trips ${repetition}`);
    for (const rounds of ROUNDS) {
      const from = completions.requests.length;
      financeCalls.take();
      const answer = await answers.ask(tripChat, `Which accounts do we have? rounds=${rounds}`, TEST_MODEL);
      if (answer.status !== "complete" || answer.toolCalls.length !== rounds) {
        throw new Error(`rounds=${rounds}: ended ${answer.status} (${answer.error}) with ${answer.toolCalls.length} tool calls`);
      }
      if (repetition < 0) continue; // warm-up
      const toolCalls = financeCalls.take().filter((span) => span.side === "client" && span.procedure === "accounts.list");
      accountsFinance.push(...toolCalls.map((span) => span.endMs - span.startMs));
      trips[rounds].push((await storedTimesOf(answer)).storedMs);
      tripEvents[rounds].push(answer.totalMs);
      const requests: RecordedCompletionRequest[] = completions.requests.slice(from);
      for (const [at, request] of requests.entries()) {
        providerOwn.push(request.answeredAt! - request.receivedAt);
        if (at > 0) gaps.push(request.receivedAt - requests[at - 1]!.answeredAt!);
      }
    }
  }
  const added = trips[1].map((ms, at) => ms - trips[0][at]!);
  const addedPerRound = trips[3].map((ms, at) => (ms - trips[0][at]!) / 3);
  const financeMedian = median(accountsFinance);
  const tripStalls = ROUNDS.map((rounds) => tripEvents[rounds].filter((ms, at) => ms - trips[rounds][at]! > 1000).length);
  console.log(
    `\nOpenAI-compatible provider answering at once (${ROUND_TRIPS} repetitions): POST -> answer stored complete, medians: text only ${fmt(median(trips[0]))}, 1 round ${fmt(median(trips[1]))}, 3 rounds ${fmt(median(trips[3]))} ms`,
  );
  console.log(
    `  POST -> done event, medians: ${fmt(median(tripEvents[0]))}, ${fmt(median(tripEvents[1]))}, ${fmt(median(tripEvents[3]))} ms; done event > 1 s after the answer was stored: ${tripStalls.join(", ")} of ${ROUND_TRIPS} each`,
  );
  console.log(
    `  added per round trip: 1 round ${fmt(median(added))} ms, 3 rounds ${fmt(median(addedPerRound))} ms per round (target < 20 ms); get_accounts' finance call (accounts.list) ${fmt(financeMedian)} ms (median)`,
  );
  console.log(
    `  as the provider sees it: its answer ended -> next request ${fmt(median(gaps))} ms (median, p95 ${fmt(percentile(sorted(gaps), 95))}); its own time per request ${fmt(median(providerOwn))} ms`,
  );
  const baseline = { name: "the tool's finance call in those answers (get_accounts: accounts.list), median", value: financeMedian };
  figures.push({
    name: `added by one tool-call round trip (get_accounts), local provider answering at once: median over ${ROUND_TRIPS} of (1 round - text only), POST to the answer stored complete`,
    value: median(added),
    unit: "ms",
    baseline,
    goal: { text: "< 20 ms, the tool's finance time included", met: median(added) < 20 },
  });
  figures.push({
    name: `added per tool-call round trip with 3 rounds: median over ${ROUND_TRIPS} of (3 rounds - text only) / 3`,
    value: median(addedPerRound),
    unit: "ms",
    baseline,
    goal: { text: "< 20 ms, the tool's finance time included", met: median(addedPerRound) < 20 },
  });
  figures.push({
    name: "a round trip as the provider sees it: its answer with the tool call ended -> the next request arrived (median)",
    value: median(gaps),
    unit: "ms",
    baseline,
  });
  figures.push({
    name: `answer with text only through the local provider, POST to stored complete (median; to the done event ${median(tripEvents[0]).toFixed(0)} ms, ${tripStalls[0]} of ${ROUND_TRIPS} done events > 1 s late)`,
    value: median(trips[0]),
    unit: "ms",
    baseline: { name: "the provider's own time per request, median", value: median(providerOwn) },
  });

  await saveSection({
    id: "assistant",
    title: "Assistant: built-in answers and tool-call round trips on the large family",
    method: `A family of ${transactions.toLocaleString("en")} transactions over two years (the demo seed), the whole system in this process, through the gateway with the admin's bearer token. Built-in: ${samples.length} questions one after another (after one warm-up question of each kind), ${KINDS.length} kinds in rounds of shuffled order, ${CHATS} chats; each timed from sending the POST to the \`done\` event of GET .../messages/:id/stream opened right after the 201 (pushed by the chat service, no polling interval), and to the answer's row stored complete (its updated_at: the services run in this process, on the same clock); the done event trails the stored answer by about 8 s when the stream misses the chat service's wake-up. Baseline: the time each answer waited on finance, from the service kit's own tRPC client spans of the chat service's finance calls (recorded in memory by this process; overlapping calls counted once). Round trips: the local chat-completions test server answering at once, the same question with 0, 1 or 3 rounds of one get_accounts call, interleaved, ${ROUND_TRIPS} repetitions after 3 warm-up ones, timed to the answer stored complete. ${SEEDED_STATE}`,
    figures,
  });
  if (figures.some((figure) => figure.goal && !figure.goal.met)) process.exitCode = 1;
} finally {
  await stop();
  await completions.stop();
}
