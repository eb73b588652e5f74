// Asks the assistant one question through the gateway and times its answer by the answer's event
// stream (GET .../messages/:id/stream): POST, then the stream read until its `done` event. The
// stream is pushed by the chat service as the answer progresses (no polling interval in between).
import { performance } from "node:perf_hooks";
import { MessageResponseSchema, ToolCallSchema, type Message } from "@hearth/contracts";

type ToolCall = NonNullable<Message["tool_calls"]>[number];

export interface TimedAnswer {
  /** POST to the `done` event, ms. */
  totalMs: number;
  /** Date.now() as the POST was sent (the services run in this process: the same clock as their timestamps). */
  sentAt: number;
  /** POST to its 201. */
  postMs: number;
  /** Each `tool_call` event, ms after the POST was sent, with the call as stored. */
  toolCalls: { atMs: number; call: ToolCall }[];
  status: string;
  error: string | null;
  answerId: string;
  text: string;
}

export interface AnswerClient {
  newChat(title: string): Promise<string>;
  ask(chatId: string, content: string, model: string): Promise<TimedAnswer>;
}

/** A client of the chat routes for one user (a bearer token, as the seeded admin has). */
export function answerClient(baseUrl: string, token: string): AnswerClient {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return {
    async newChat(title) {
      const res = await fetch(`${baseUrl}/api/v1/chats`, { method: "POST", headers, body: JSON.stringify({ title }) });
      const body = (await res.json()) as { id: string };
      if (res.status !== 201) throw new Error(`POST /chats: ${res.status} ${JSON.stringify(body)}`);
      return body.id;
    },

    async ask(chatId, content, model) {
      const sentAt = Date.now();
      const began = performance.now();
      const posted = await fetch(`${baseUrl}/api/v1/chats/${chatId}/messages`, { method: "POST", headers, body: JSON.stringify({ content, model }) });
      const postBody: unknown = await posted.json();
      if (posted.status !== 201) throw new Error(`POST messages: ${posted.status} ${JSON.stringify(postBody)}`);
      const postMs = performance.now() - began;
      const question = MessageResponseSchema.parse(postBody);
      const stream = await fetch(`${baseUrl}/api/v1/chats/${chatId}/messages/${question.id}/stream`, { headers });
      if (stream.status !== 200 || !stream.body) throw new Error(`stream: ${stream.status} ${await stream.text()}`);
      const toolCalls: TimedAnswer["toolCalls"] = [];
      let text = "";
      let buffered = "";
      let answer: TimedAnswer | undefined;
      const decoder = new TextDecoder();
      for await (const chunk of stream.body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = /^event: (\w+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || data === undefined) continue; // a keep-alive comment
          const atMs = performance.now() - began;
          const parsed = JSON.parse(data) as Record<string, unknown>;
          if (event === "tool_call") toolCalls.push({ atMs, call: ToolCallSchema.parse(parsed) });
          else if (event === "text") text += String(parsed["delta"]);
          else if (event === "error") throw new Error(`the stream failed: ${data}`);
          else if (event === "done") {
            const done = parsed as { message_id: string; status: string; error: string | null };
            answer = { totalMs: atMs, sentAt, postMs, toolCalls, status: done.status, error: done.error, answerId: done.message_id, text };
          }
        }
      }
      // Read to its end (the server ends it right after `done`), so the connection is kept for the next request.
      if (!answer) throw new Error("the stream ended without a done event");
      return answer;
    },
  };
}
