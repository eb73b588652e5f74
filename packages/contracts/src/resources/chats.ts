import { z } from "zod";
import { PaginationSchema, TimestampSchema, UuidSchema, pageQueryOf } from "../primitives";

export const ToolCallSchema = z.object({
  id: UuidSchema,
  function_name: z.string(),
  function_arguments: z.record(z.string(), z.unknown()),
  function_result: z.record(z.string(), z.unknown()).nullable(),
  created_at: TimestampSchema,
});

export const MessageSchema = z.object({
  id: UuidSchema,
  type: z.enum(["user_message", "assistant_message"]),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  model: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  tool_calls: z.array(ToolCallSchema).nullable(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ChatResourceSchema = z.object({
  id: UuidSchema,
  title: z.string(),
  error: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});

export const ChatSummarySchema = ChatResourceSchema.extend({
  message_count: z.number().int().min(0),
  last_message_at: TimestampSchema.nullable(),
});
export type ChatSummary = z.infer<typeof ChatSummarySchema>;

export const ChatCollectionSchema = z.object({
  chats: z.array(ChatSummarySchema),
  pagination: PaginationSchema,
});

export const ChatDetailSchema = ChatResourceSchema.extend({
  messages: z.array(MessageSchema),
  pagination: PaginationSchema.nullable(),
});
export type ChatDetail = z.infer<typeof ChatDetailSchema>;

/** Sure's chats and messages controllers answer `{ "error": "Chat not found" }`: their sentence in `error`. */
export const SURE_CHAT_ERRORS = { notFound: "Chat not found", sentenceInError: true } as const;

/** Sure's chat page shows 50 messages, oldest first. */
export const ChatMessagesQuerySchema = pageQueryOf(50);

/** The `:chat_id` path parameter of a chat's message routes. */
export const ChatIdParams = z.object({ chat_id: UuidSchema });
export const ChatMessageParams = ChatIdParams.extend({ id: UuidSchema });

/** The longest message a user may send (characters): a question, not a document. */
export const MAX_MESSAGE_CHARS = 10_000;

const MessageContentSchema = z
  .string({ message: "Content can't be blank" })
  .trim()
  .min(1, { message: "Content can't be blank" })
  .max(MAX_MESSAGE_CHARS, { message: `Content is too long (maximum is ${MAX_MESSAGE_CHARS} characters)` });

/** A model name as a client sends it; which names exist is the chat service's to say (422 listing them). */
const ModelNameSchema = z.string().trim().min(1).max(100);

const ChatTitleSchema = z
  .string({ message: "Title can't be blank" })
  .trim()
  .min(1, { message: "Title can't be blank" })
  .max(255, { message: "Title is too long (maximum is 255 characters)" });

export const CreateChatBodySchema = z.object({
  title: ChatTitleSchema,
  message: MessageContentSchema.optional(),
  model: ModelNameSchema.optional(),
});

export const UpdateChatBodySchema = z.object({ title: ChatTitleSchema });

export const CreateMessageBodySchema = z.object({
  content: MessageContentSchema,
  model: ModelNameSchema.optional(),
});

/** The spec's MessageResponse: a message with its chat and, for a user's message, the progress of the answer to it. */
export const MessageResponseSchema = MessageSchema.extend({
  chat_id: UuidSchema,
  ai_response_status: z.enum(["pending", "complete", "failed"]).nullable(),
  ai_response_message: z.string().nullable(),
});
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** The spec's RetryResponse: the assistant message that will hold the new answer. */
export const RetryResponseSchema = z.object({ message: z.string(), message_id: UuidSchema });

/** The longest a progress read waits for something new (the stream asks again after it). */
export const MAX_PROGRESS_WAIT_MS = 20_000;

/**
 * What the stream of an answer asks the chat service: what is new since what it has sent (text
 * past `text_offset`, tool calls past the first `tool_calls_seen`), waiting up to `wait_ms` for it.
 * `id` names the answer, or a question (then its latest answer).
 */
export const MessageProgressInputSchema = z.object({
  chat_id: UuidSchema,
  id: UuidSchema,
  text_offset: z.number().int().min(0).max(10_000_000),
  tool_calls_seen: z.number().int().min(0).max(10_000),
  wait_ms: z.number().int().min(0).max(MAX_PROGRESS_WAIT_MS),
});

export const MessageProgressSchema = z.object({
  message_id: UuidSchema,
  status: z.enum(["pending", "complete", "failed"]),
  /** The text past `text_offset`; `text_offset` + its length is the next offset. */
  text: z.string(),
  tool_calls: z.array(ToolCallSchema),
  error: z.string().nullable(),
});
export type MessageProgress = z.infer<typeof MessageProgressSchema>;
