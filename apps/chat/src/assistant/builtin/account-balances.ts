import type { AssistantAccount, GetAccountsResult } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { listText, moneyText, type Wording } from "./format";
import type { Intent } from "./intent";
import { QUESTION_WORDS } from "./intent";
import { findNames } from "./name-match";
import type { Tools } from "./tool-calls";
import { stem, wordsOf } from "./words";

/** Longest list of accounts an answer spells out. */
const MAX_LISTED = 25;

/** Words about balances that name no account: "what's the balance of my account". */
const BALANCE_WORDS = new Set(["balance", "balances", "account", "accounts", "owe", "left", "have", "current", "currently", "right"]);

/** Which accounts the question is about: every account when it names none. */
export type AccountChoice = { kind: "named"; accounts: AssistantAccount[] } | { kind: "all" } | { kind: "not_found"; name: string };

/**
 * The accounts a question names: by a whole name ("Chase Total Checking"), else by the most of
 * its other words that an account's name, subtype or type carries ("checking" → the checking
 * accounts); several equally good ones are all given. None found: all of them, unless a name was
 * led in ("in my Foo account"), which is then said to be missing.
 */
export function chooseAccounts(intent: Intent, accounts: readonly AssistantAccount[]): AccountChoice {
  const whole = findNames(intent.subjectWords, accounts, { weakWords: QUESTION_WORDS });
  if (whole.length > 0) return { kind: "named", accounts: whole.map((match) => match.item) };

  const wanted = new Set(
    intent.subjectWords.filter((word): word is string => word !== null && !QUESTION_WORDS.has(word) && !BALANCE_WORDS.has(word)).map(stem),
  );
  if (wanted.size === 0) return { kind: "all" };
  let best: AssistantAccount[] = [];
  let bestScore = 0;
  for (const account of accounts) {
    const own = new Set(wordsOf(`${account.name} ${account.subtype ?? ""} ${account.account_type.replaceAll("_", " ")}`).map(stem));
    const score = [...wanted].filter((word) => own.has(word)).length;
    if (score > bestScore) [best, bestScore] = [[account], score];
    else if (score === bestScore && score > 0) best.push(account);
  }
  if (best.length > 0) return { kind: "named", accounts: best };
  // Stray words ("hey, what are my balances") should not hide the answer: only a name led in ("in my Foo account") is missed.
  if (intent.mentionedName === null) return { kind: "all" };
  const name = intent.mentionedName.split(" ").filter((word) => !BALANCE_WORDS.has(word));
  return { kind: "not_found", name: name.length > 0 ? name.join(" ") : intent.mentionedName };
}

function balanceText(account: AssistantAccount, wording: Wording): string {
  const money = moneyText(account.balance_cents, account.currency, wording);
  return account.classification === "liability" && account.balance_cents >= 0 ? `${money} owed` : money;
}

/** One sentence for one account, a list for several: balances in each account's own currency. */
export function answerAccountBalances(result: GetAccountsResult, choice: AccountChoice, wording: Wording): Answer {
  if (result.accounts.length === 0) return ["You don't have any accounts yet."];
  if (choice.kind === "not_found") {
    const names = result.accounts.slice(0, MAX_LISTED).map((account) => account.name);
    return [
      `I couldn't find an account called '${choice.name}'.`,
      `Your accounts are ${listText(names)}${result.accounts.length > MAX_LISTED ? " and more" : ""}.`,
    ];
  }
  const chosen = choice.kind === "all" ? result.accounts : choice.accounts;
  if (chosen.length === 1) {
    const account = chosen[0]!;
    const money = moneyText(account.balance_cents, account.currency, wording);
    return account.classification === "liability" && account.balance_cents >= 0
      ? [`You owe ${money} on ${account.name}.`]
      : [`Your ${account.name} balance is ${money}.`];
  }
  const listed = chosen.slice(0, MAX_LISTED);
  const more = chosen.length - listed.length + (choice.kind === "all" && result.truncated ? result.total_count - result.accounts.length : 0);
  return [
    choice.kind === "all" ? "Your account balances:" : `${chosen.length} accounts match:`,
    ...listed.map((account) => `- ${account.name}: ${balanceText(account, wording)}`),
    ...(more > 0 ? [`…and ${more} more.`] : []),
  ];
}

export async function replyAccountBalances(tools: Tools, intent: Intent, wording: Wording): Promise<Answer> {
  const result = await tools.call("get_accounts", {});
  return answerAccountBalances(result, chooseAccounts(intent, result.accounts), wording);
}
