import { createTypedServiceClient, type BoundServiceCall, type TypedServiceClient } from "@hearth/service-kit";

/** Finance as chat calls it (the assistant's tools and facts): typed from the contracts, answers parsed once. */
export type FinanceClient = TypedServiceClient<"finance">;

export const createFinanceClient = (call: BoundServiceCall): FinanceClient => createTypedServiceClient("finance", call);
