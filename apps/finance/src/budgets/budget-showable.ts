import { AppError } from "@hearth/contracts";

const LARGEST = BigInt(Number.MAX_SAFE_INTEGER);

/** Figures past JSON's exact integers (an entry converted at an extreme rate) are a clear 422, not a 500 on the way out. */
export function showable(...figures: bigint[]): void {
  if (figures.some((cents) => cents > LARGEST || cents < -LARGEST))
    throw AppError.validation(["This budget's amounts exceed the largest the API can show exactly; check the exchange rates and amounts of its period"]);
}
