import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { risingIds } from "../../rules/rising-id-sql";

// What the SureImport publisher reads before its steps write.

type FamilySettingsRow = { currency: string; month_start_day: number };

/** The family's settings row: null when it has none yet. */
export async function familySettingsRow(tx: FinanceTx, familyId: string): Promise<FamilySettingsRow | null> {
  const [row] = await tx.$queryRaw<FamilySettingsRow[]>`
    SELECT currency, month_start_day FROM family_settings WHERE family_id = ${familyId}::uuid`;
  return row ?? null;
}

/** The import's NDJSON content: null when the family's import is gone. */
export async function storedImportContent(tx: FinanceTx, familyId: string, importId: string): Promise<string | null> {
  const [stored] = await tx.$queryRaw<{ content: string }[]>`SELECT content FROM imports WHERE id = ${importId}::uuid AND family_id = ${familyId}::uuid`;
  return stored?.content ?? null;
}

/** A fresh risingIds() id of ordinal 0, as a statement makes one: its prefix is what later ids share. */
export async function risingIdOfOrdinalZero(tx: FinanceTx): Promise<string> {
  const ids = risingIds();
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT ${ids(Prisma.sql`0`)}::text AS id`;
  return row!.id;
}
