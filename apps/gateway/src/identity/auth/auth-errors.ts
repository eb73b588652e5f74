import { AppError } from "@hearth/contracts";

// Answers shared by the password, token and SSO paths, word for word as Sure's clients see them.
export const INVALID_LOGIN = new AppError("unauthorized", { message: "Invalid email or password" });
export const ACCOUNT_SUSPENDED = new AppError("unauthorized", { message: "This account is suspended" });
