// The built-in assistant: the provider, and the pure pieces that turn tool results into answers
// (so a check against the ledger can find each figure's source; see README.md).
export { BUILTIN_MODEL, createBuiltinAssistant } from "./builtin-assistant";
export { answerQuestion } from "./answer-question";
export { textOf, type Answer } from "./answer-text";
export { understand, type Intent, type IntentKind } from "./intent";
export { findPeriod, thisMonthOf, type Period } from "./periods";
export { answerNetWorth } from "./net-worth";
export { answerAccountBalances, chooseAccounts } from "./account-balances";
export { answerCashFlow, answerSubjectAmount, answerTotal, subjectTotalCents } from "./amounts";
export { answerBudget, budgetMonthOf } from "./budget";
export { answerUpcomingBills, billWindowOf, billsDue } from "./upcoming-bills";
export { answerLargestExpenses, findLargestExpenses } from "./largest-expenses";
