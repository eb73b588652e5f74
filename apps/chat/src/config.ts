import { serviceEnvSchema } from "@hearth/service-kit";

export const CHAT_DEFAULT_PORT = 4002;
export const ChatEnvSchema = serviceEnvSchema(CHAT_DEFAULT_PORT);
