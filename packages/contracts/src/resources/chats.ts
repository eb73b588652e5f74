import { z } from "zod";
import { PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";

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

export const CreateChatBodySchema = z.object({
  title: z.string().trim().min(1, { message: "Title can't be blank" }).max(255, { message: "Title is too long (maximum is 255 characters)" }),
  message: z.string().trim().min(1, { message: "Message can't be blank" }).max(20_000).optional(),
  model: z.string().trim().min(1).max(100).optional(),
});
