import { z } from "zod";

/** All tool calls' arguments of one completion, in characters, at most. */
export const MAX_TOOL_ARGUMENT_CHARS = 1_000_000;

/**
 * Puts one streamed chat completion back together from its `chat.completion.chunk`s: the text
 * deltas as they come, and the tool calls, whose id, name and arguments arrive in pieces keyed by
 * their `index`. Only what we read is validated; everything else a provider adds is ignored.
 */

/** A tool call the model asked for, once its stream ended. */
export interface RequestedToolCall {
  id: string;
  name: string;
  /** The arguments' JSON text as the model wrote it (maybe invalid). */
  arguments: string;
}

export interface AccumulatedCompletion {
  /** The text of this completion (it was also handed out delta by delta). */
  text: string;
  toolCalls: RequestedToolCall[];
}

/** The stream was readable but not a chat completion (or it ended before the completion did). */
export class MalformedCompletionStream extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "MalformedCompletionStream";
  }
}

/** More calls than any real answer needs in one go: a guard against a runaway stream. */
const MAX_TOOL_CALLS_PER_COMPLETION = 128;

const ToolCallDeltaSchema = z.object({
  // Some compatible servers leave out `index` when each delta carries a whole call.
  index: z
    .number()
    .int()
    .nonnegative()
    .max(MAX_TOOL_CALLS_PER_COMPLETION - 1)
    .nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const ChunkSchema = z.object({
  // Absent or empty on usage-only chunks.
  choices: z
    .array(
      z.object({
        index: z.number().int().nullish(),
        delta: z.object({ content: z.string().nullish(), tool_calls: z.array(ToolCallDeltaSchema).nullish() }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
});

type ToolCallDelta = z.infer<typeof ToolCallDeltaSchema>;

export class CompletionAccumulator {
  private text = "";
  private finishReason: string | undefined;
  private readonly callsByIndex = new Map<number, RequestedToolCall>();
  private lastIndex = -1;

  /** Takes one chunk; returns the text it adds ("" when none). */
  add(chunk: unknown): string {
    const parsed = ChunkSchema.safeParse(chunk);
    if (!parsed.success) throw new MalformedCompletionStream("a chunk is not a chat.completion.chunk");
    let added = "";
    for (const choice of parsed.data.choices ?? []) {
      // We ask for one choice; a provider that sends more is answered from the first.
      if ((choice.index ?? 0) !== 0) continue;
      if (choice.delta?.content) added += choice.delta.content;
      for (const delta of choice.delta?.tool_calls ?? []) this.addToolCallDelta(delta);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    this.text += added;
    return added;
  }

  /** The completion, once its stream ended; a stream without a finish_reason was cut short. */
  result(): AccumulatedCompletion {
    if (this.finishReason === undefined) throw new MalformedCompletionStream("the stream ended before the completion finished");
    const toolCalls = [...this.callsByIndex.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return { text: this.text, toolCalls };
  }

  private argumentChars = 0;

  private addToolCallDelta(delta: ToolCallDelta): void {
    const index = delta.index ?? this.indexWithoutOne(delta);
    let call = this.callsByIndex.get(index);
    if (!call) {
      call = { id: "", name: "", arguments: "" };
      this.callsByIndex.set(index, call);
    }
    this.lastIndex = index;
    // As the official client's own accumulator: id and name arrive whole (later ones replace), arguments in pieces.
    if (delta.id) call.id = delta.id;
    if (delta.function?.name) call.name = delta.function.name;
    if (delta.function?.arguments) {
      this.argumentChars += delta.function.arguments.length;
      // Real arguments are a few KB: megabytes are a model gone wrong, not to be held in memory, stored or sent back.
      if (this.argumentChars > MAX_TOOL_ARGUMENT_CHARS) throw new MalformedCompletionStream("the tool calls' arguments are too large");
      call.arguments += delta.function.arguments;
    }
  }

  /** Without `index`: a delta with a new id opens a call; one without an id continues the last. */
  private indexWithoutOne(delta: ToolCallDelta): number {
    if (!delta.id) return Math.max(this.lastIndex, 0);
    for (const [index, call] of this.callsByIndex) if (call.id === delta.id) return index;
    return this.lastIndex + 1;
  }
}
