import type { Merchant } from "@hearth/contracts";
import type { Merchant as MerchantRow } from "../generated/prisma/client";

export function toMerchantResource(row: MerchantRow): Merchant {
  return { id: row.id, name: row.name, type: row.kind, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}
