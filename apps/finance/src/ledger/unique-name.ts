import { AppError } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";

/** Runs a write whose only unique key is the family's name for the thing: a clash is Sure's 422 "Name has already been taken". */
export async function withUniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw AppError.taken("Name");
    throw err;
  }
}
