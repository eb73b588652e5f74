import { AppError } from "@hearth/contracts";

/** A family never loses its last active admin: with no other one, the change is refused with `message`. */
export function requireAnotherActiveAdmin(otherActiveAdmins: number, message: string): void {
  if (otherActiveAdmins === 0) throw AppError.validation([message]);
}
