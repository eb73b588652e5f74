import { AppError, type BodyOf } from "@hearth/contracts";
import { centsIn } from "../ledger/money";

export type NewTransferBody = BodyOf<"transfers.create">["transfer"];

/** What a transfer moves, in each account's minor units. */
export interface TransferAmounts {
  /** Leaves the source, before its fee. */
  amount: bigint;
  /** Arrives at the destination, before its fee. */
  arriving: bigint;
  sourceFee: bigint | null;
  destinationFee: bigint | null;
}

/**
 * The source pays `amount` plus its fee; the destination receives `destination_amount` (the
 * same amount within one currency, required between two) less its fee.
 */
export function transferAmountsOf(input: NewTransferBody, from: { currency: string }, to: { currency: string }): TransferAmounts {
  const amount = centsIn(input.amount, from.currency);
  if (amount === 0n) throw AppError.validation(["Amount must be greater than 0"]);
  if (from.currency !== to.currency && input.destination_amount === undefined) {
    throw AppError.validation([`destination_amount is required between ${from.currency} and ${to.currency}`]);
  }
  const arriving = input.destination_amount === undefined ? amount : centsIn(input.destination_amount, to.currency, "Destination amount");
  if (from.currency === to.currency && arriving !== amount) throw AppError.validation(["destination_amount must equal amount within one currency"]);
  const sourceFee = input.source_fee === undefined ? null : centsIn(input.source_fee, from.currency, "Source fee");
  const destinationFee = input.destination_fee === undefined ? null : centsIn(input.destination_fee, to.currency, "Destination fee");
  if (destinationFee !== null && destinationFee >= arriving) throw AppError.validation(["Destination fee must be less than the amount received"]);
  return { amount, arriving, sourceFee, destinationFee };
}
