import { HexColorSchema, type InputOf } from "@hearth/contracts";
import { unguardedText } from "../imports/parsing/formula-guard";

type ImportRow = InputOf<"merchants.import">["rows"][number];

/** The longest name a merchant may have (the JSON create's limit). */
const MAX_NAME_LENGTH = 200;
/** The longest website kept (the SureImport reader's limit for a link); a longer one is dropped, as a bad colour is. */
const MAX_WEBSITE_LENGTH = 2_048;

export interface ImportPlan {
  /** New merchants in file order, each name once. */
  create: { name: string; color: string | null; website_url: string | null }[];
  /** Rows with a name that are not created: already there, repeated in the file, or invalid. */
  skipped: number;
}

/**
 * Sure's merchant import, row by row: a row without a name is passed over (not counted); a name
 * the family has, or an earlier row had, is skipped; a colour that is no hex colour is dropped
 * (Sure replaces it), as is a website too long; a name longer than a merchant may have is skipped.
 * A name or website Hearth's export guarded against formula injection ("'=x") reads back as it was.
 */
export function planImport(rows: ImportRow[], existing: ReadonlySet<string>): ImportPlan {
  const seen = new Set(existing);
  const create: ImportPlan["create"] = [];
  let skipped = 0;
  for (const row of rows) {
    const name = unguardedText(row.name.trim());
    if (name === "") continue;
    if (seen.has(name) || name.length > MAX_NAME_LENGTH) {
      skipped++;
      continue;
    }
    seen.add(name);
    const color = row.color?.trim() ?? "";
    // Sure's merchant import sets website_url from the row's website (blank is none).
    const website = unguardedText(row.website_url?.trim() ?? "");
    create.push({
      name,
      color: HexColorSchema.safeParse(color).success ? color : null,
      website_url: website === "" || website.length > MAX_WEBSITE_LENGTH ? null : website,
    });
  }
  return { create, skipped };
}
