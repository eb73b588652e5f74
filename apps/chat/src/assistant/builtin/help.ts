import type { Answer } from "./answer-text";

/** The questions the built-in assistant answers, as examples of how to ask them. */
export const EXAMPLE_QUESTIONS = [
  "What's my net worth?",
  "What's the balance of my checking account?",
  "How much did we spend on groceries last month?",
  "How much did we spend at Amazon this year?",
  "How much did we spend on things tagged vacation in March?",
  "What was our income in 2025?",
  "How much did we save last month?",
  "How are we doing on the budget?",
  "What bills are coming up?",
  "What were our largest expenses in the last 30 days?",
];

/** What the assistant can answer: the reply to "help", greetings and anything it does not understand. */
export function answerHelp(understood: boolean): Answer {
  return [
    understood ? "I can answer questions about your money, such as:" : "Sorry, I can't answer that one. I can answer questions like these:",
    ...EXAMPLE_QUESTIONS.map((question) => `- ${question}`),
    'Periods can be named like "last month", "this year", "in March", "in 2025", "last 30 days" or "yesterday".',
  ];
}

const GREETINGS = new Set("help hi hello hey start menu options commands thanks thank ok okay great cool bye".split(" "));

/** Whether a question the rules did not place is a plain greeting or call for help (then no "sorry"). */
export function isGreeting(words: readonly string[]): boolean {
  return words.length === 0 || words.every((word) => GREETINGS.has(word) || ["what", "can", "you", "do", "there", "please"].includes(word));
}
