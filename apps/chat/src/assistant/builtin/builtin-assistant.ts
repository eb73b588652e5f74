import type { AssistantProvider, ConversationTurn, ReplyIo } from "../assistant-types";
import { answerQuestion } from "./answer-question";
import { deltasOf } from "./answer-text";
import { toolsOf } from "./tool-calls";

/** The model name clients pick the built-in assistant by. */
export const BUILTIN_MODEL = "hearth-builtin";

/** The question is the conversation's last user turn; earlier turns are not needed by these rules. */
function lastQuestion(history: readonly ConversationTurn[]): string {
  for (let at = history.length - 1; at >= 0; at--) if (history[at]!.role === "user") return history[at]!.content;
  return "";
}

/**
 * The embedded default assistant: no network and no model. It reads the question with rules,
 * calls the same tools as a model would (through the runner, which records them) and streams its
 * answer a sentence at a time.
 */
export function createBuiltinAssistant(): AssistantProvider {
  return {
    models: [BUILTIN_MODEL],
    async reply(_model: string, io: ReplyIo) {
      io.signal.throwIfAborted();
      const answer = await answerQuestion(lastQuestion(io.history), toolsOf(io), io.family);
      let content = "";
      for (const delta of deltasOf(answer)) {
        io.signal.throwIfAborted();
        io.onText(delta);
        content += delta;
      }
      return { content };
    },
  };
}
