import { serviceEnvSchema } from "@hearth/service-kit";

export const NOTIFICATIONS_DEFAULT_PORT = 4003;
export const NotificationsEnvSchema = serviceEnvSchema(NOTIFICATIONS_DEFAULT_PORT);
