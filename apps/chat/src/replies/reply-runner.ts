import { ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES, ERROR_CATALOGUE, type Actor, type ActorStanding } from "@hearth/contracts";
import type { Logger, ServiceCall } from "@hearth/service-kit";
import { JobLost, JobRunnerStopping } from "@hearth/service-kit/jobs";
import { AssistantFailure, UnreadableArguments, type ReplyIo, type ToolResult } from "../assistant/assistant-types";
import type { AssistantRegistry } from "../assistant/assistant-registry";
import { createAssistantTools } from "../assistant/tools";
import { createFinanceClient } from "../finance-client";
import { toToolCall } from "../messages/message-resource";
import type { AskerStanding } from "./asker-standing";
import { FAMILY_AI_OFF, familyFactsOf } from "./family-facts";
import type { ReplyEvents } from "./reply-events";
import { ReplyGone, type ClaimedReply, type ReplyFence, type ReplyRepository } from "./reply-repository";

/** The job an answer is produced in: its signal, and the fence its end is written with. */
export interface ReplyJob {
  signal: AbortSignal;
  fence: ReplyFence;
}

/** How often an answer's text so far is stored while it streams (clients polling the chat see it grow). */
const SAVE_TEXT_EVERY_MS = 500;

export interface ReplyRunnerDeps {
  replies: ReplyRepository;
  /** Whether the asking actor still holds (the gateway's word), read when an answer starts and before each tool. */
  standing: AskerStanding;
  registry: AssistantRegistry;
  events: ReplyEvents;
  finance: ServiceCall;
  log: Logger;
  timeoutMs: number;
}

/** A model's unreadable arguments are kept this long (characters), enough to see what went wrong. */
const MAX_STORED_RAW_ARGUMENTS = 2000;
/** A tool name is stored this long at most; a model may invent any name. */
const MAX_TOOL_NAME = 100;
/** An answer longer than this (characters) is a model gone wrong, not an answer: it fails rather than fill memory and the database. */
export const MAX_ANSWER_CHARS = 100_000;
/** Tool calls one answer may make (a model may ask for many per round, and loop). */
export const MAX_TOOL_CALLS_PER_ANSWER = 40;
const TOO_LONG = "The assistant's answer was too long";
const TOO_MANY_TOOLS = "The assistant called too many tools for one answer";

const INTERRUPTED = "The answer was interrupted before it finished; retry it";
const TOO_SLOW = "The assistant took too long to answer";
const GENERIC = "The assistant could not answer";
const UNCHECKED = "The assistant could not check your access: ask again in a moment";
const ACCESS_ENDED = "The credential you asked with no longer allows this: ask again";
const USER_AI_OFF = ERROR_CATALOGUE.feature_disabled.message;

/**
 * What `work` settles to, or the answer's abort as soon as it comes. A provider that ignores its
 * signal, or listens for it only after it came (the answer's chat deleted before its provider was
 * called), never settles: the answer, its job and a stopping service all waited for it without end.
 */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    // Handled here whichever comes first: a provider failing after the abort is no unhandled rejection.
    void work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    if (signal.aborted) onAbort();
  });
}

/** A call's arguments as stored: an object (anything else wrapped), and not more than the tools take. */
function argumentsObject(args: unknown): Record<string, unknown> {
  const bytes = Buffer.byteLength(JSON.stringify(args) ?? "", "utf8");
  if (bytes > ASSISTANT_TOOL_ARGUMENTS_MAX_BYTES) return { too_large_bytes: bytes };
  return typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : { value: args };
}

/**
 * Produces answers (each in its job, reply-job.ts): the conversation, the family's facts and the tools for the asking
 * user go to the model's provider; each tool call is stored as it happens, the text is streamed
 * to listeners and stored as it grows, and the answer ends complete or failed with a safe message.
 * An answer whose chat is deleted meanwhile is abandoned, leaving nothing behind.
 */
export function createReplyRunner(deps: ReplyRunnerDeps) {
  const { replies, registry, events, log } = deps;
  /** Answers in progress here, by chat: deleting a chat aborts its answers at once. */
  const running = new Map<string, Set<AbortController>>();
  /** The text so far of each answer in progress here, fresher than the stored one (saved every SAVE_TEXT_EVERY_MS). */
  const liveText = new Map<string, () => string>();

  /** The asker as they stand now, or an AssistantFailure saying why they may not go on. */
  async function standingActor(asked: Actor, requestId: string): Promise<Actor> {
    let standing: ActorStanding;
    try {
      standing = await deps.standing(asked, requestId);
    } catch (err) {
      throw new AssistantFailure(UNCHECKED, { cause: err });
    }
    if (!standing.granted) throw new AssistantFailure(standing.reason ?? ACCESS_ENDED);
    if (!standing.ai_enabled) throw new AssistantFailure(USER_AI_OFF);
    return { ...asked, role: standing.role ?? asked.role, scopes: asked.scopes.filter((scope) => standing.scopes.includes(scope)) };
  }

  /** Ends an answer a worker began and could not finish (it died, or its service stopped): failed, not produced again, since its tools may have run. */
  async function interrupted(reply: Pick<ClaimedReply, "id">, job: ReplyJob): Promise<void> {
    await replies.finish(reply.id, { status: "failed", content: "", error: INTERRUPTED }, job.fence);
    events.publish(reply.id, { type: "done", status: "failed", error: INTERRUPTED });
  }

  async function run(reply: ClaimedReply, job: ReplyJob): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AssistantFailure(TOO_SLOW)), deps.timeoutMs);
    // The job stops: its service is stopping (the answer ends as interrupted), or it is no longer this worker's (nothing more is written).
    const onJobAbort = () => controller.abort(job.signal.reason instanceof JobRunnerStopping ? new AssistantFailure(INTERRUPTED) : job.signal.reason);
    if (job.signal.aborted) onJobAbort();
    else job.signal.addEventListener("abort", onJobAbort, { once: true });
    const ofChat = running.get(reply.chatId) ?? new Set();
    running.set(reply.chatId, ofChat.add(controller));
    let text = "";
    let savedAt = Date.now();
    let saving: Promise<void> = Promise.resolve();
    let toolCalls = 0;
    /** Tool calls under way (each bounded by its calls' timeouts): an aborted answer ends after them, so what ran is recorded. */
    const toolsRunning = new Set<Promise<unknown>>();
    liveText.set(reply.id, () => text);
    try {
      const history = await replies.conversation(reply);
      if (!history) throw new ReplyGone();
      const provider = registry.providerOf(reply.model);
      if (!provider) throw new AssistantFailure(`Model ${reply.model} is no longer available`);
      const { actor: asked, requestId } = reply.askedBy;
      // The answer runs after the request that asked: the asker's credential, role, scopes and
      // assistant switch are read again now, and the tools act with what they are now.
      let actor = await standingActor(asked, requestId);
      // Bound to `actor` as it is at each call: it is read again before every tool.
      const finance = createFinanceClient((procedure, kind, input) => deps.finance(procedure, kind, input, { requestId, actor }));
      const tools = createAssistantTools(finance);
      const callTool = async (name: string, args: unknown): Promise<ToolResult> => {
        controller.signal.throwIfAborted();
        if (++toolCalls > MAX_TOOL_CALLS_PER_ANSWER) controller.abort(new AssistantFailure(TOO_MANY_TOOLS));
        controller.signal.throwIfAborted();
        const unreadable = args instanceof UnreadableArguments;
        // No tool runs on what was read minutes ago: the asker, and the family's switch, must hold now.
        if (!unreadable) {
          try {
            actor = await standingActor(asked, requestId);
            const family = await finance.call("familySettings.aiEnabled", {});
            if (!family.ai_enabled) throw new AssistantFailure(FAMILY_AI_OFF);
          } catch (err) {
            controller.abort(err instanceof AssistantFailure ? err : new AssistantFailure(UNCHECKED, { cause: err }));
            controller.signal.throwIfAborted();
          }
        }
        const result = unreadable ? args.result : await tools.call(name, args, actor.scopes);
        // Recorded even when the answer was aborted meanwhile: the tool ran (it may have written), so it shows.
        const stored = unreadable ? { unreadable_arguments: args.raw.slice(0, MAX_STORED_RAW_ARGUMENTS) } : argumentsObject(args);
        const row = await replies.recordToolCall(reply.id, name.slice(0, MAX_TOOL_NAME), stored, result);
        controller.signal.throwIfAborted();
        events.publish(reply.id, { type: "tool_call", tool_call: toToolCall(row) });
        return result;
      };
      const io: ReplyIo = {
        history,
        tools: tools.specsFor(actor.scopes),
        family: await familyFactsOf(finance),
        signal: controller.signal,
        callTool(name: string, args: unknown): Promise<ToolResult> {
          const call = callTool(name, args);
          toolsRunning.add(call);
          const settled = () => void toolsRunning.delete(call);
          void call.then(settled, settled);
          return call;
        },
        onText(delta: string): void {
          if (controller.signal.aborted || delta === "") return;
          if (text.length + delta.length > MAX_ANSWER_CHARS) {
            controller.abort(new AssistantFailure(TOO_LONG));
            return;
          }
          text += delta;
          events.publish(reply.id, { type: "text", delta });
          if (Date.now() - savedAt >= SAVE_TEXT_EVERY_MS) {
            savedAt = Date.now();
            const snapshot = text;
            saving = saving
              .then(() => replies.saveText(reply.id, snapshot))
              .catch((err: unknown) => log.warn({ err }, "could not store an answer's text so far"));
          }
        },
      };
      // Not called for an answer aborted already, and not waited for once it is.
      controller.signal.throwIfAborted();
      const { content } = await unlessAborted(provider.reply(reply.model, io), controller.signal);
      controller.signal.throwIfAborted();
      if (content.length > MAX_ANSWER_CHARS) throw new AssistantFailure(TOO_LONG);
      await saving;
      await replies.finish(reply.id, { status: "complete", content }, job.fence);
      events.publish(reply.id, { type: "done", status: "complete", error: null });
    } catch (caught) {
      // A tool the provider was running when the answer was aborted ran all the same (it may have written): it is recorded first.
      await Promise.allSettled(toolsRunning);
      await saving;
      const reason = controller.signal.aborted ? controller.signal.reason : caught;
      // Another worker has the job now: what it writes is the answer's.
      if (reason instanceof JobLost) throw reason;
      if (reason instanceof ReplyGone || !(await replies.isPending(reply.id))) {
        events.publish(reply.id, { type: "done", status: "failed", error: "The chat was deleted" });
        return;
      }
      const error = reason instanceof AssistantFailure ? reason.safeMessage : GENERIC;
      // The operator sees why (a wrong key, a 429, a refused model); the user sees only the safe message.
      if (reason instanceof AssistantFailure) log.warn({ err: reason.cause, message_id: reply.id, model: reply.model }, reason.safeMessage);
      else log.error({ err: reason, message_id: reply.id }, "an assistant answer failed");
      await replies.finish(reply.id, { status: "failed", content: text, error }, job.fence);
      events.publish(reply.id, { type: "done", status: "failed", error });
    } finally {
      job.signal.removeEventListener("abort", onJobAbort);
      liveText.delete(reply.id);
      clearTimeout(timer);
      ofChat.delete(controller);
      if (ofChat.size === 0) running.delete(reply.chatId);
    }
  }

  return {
    run,
    interrupted,
    /** Stops this instance's answers in a chat being deleted (another instance's notice when their writes find it gone). */
    abortChat(chatId: string): void {
      for (const controller of running.get(chatId) ?? []) controller.abort(new ReplyGone());
    },
    /** The text so far of an answer produced here; undefined when it is not (then the stored text is the latest). */
    liveTextOf(messageId: string): string | undefined {
      return liveText.get(messageId)?.();
    },
    get inProgress(): number {
      let count = 0;
      for (const set of running.values()) count += set.size;
      return count;
    },
  };
}
export type ReplyRunner = ReturnType<typeof createReplyRunner>;
