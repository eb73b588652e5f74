import type { SourceKind } from "./record-types";

/** Where a source id was given: "Line 3 Account", "Line 8 Transaction split line 2". */
interface Location {
  line: number;
  label: string;
}

/** Locations named in a duplicate message at most. */
const MAX_LOCATIONS_NAMED = 20;

/** The source ids the file gives, by kind, and every place each is given (Sure's @source_ids and @source_id_locations). */
export class SourceIdIndex {
  private readonly byKind = new Map<SourceKind, Map<string, Location[]>>();

  track(kind: SourceKind, id: string, line: number, label: string): void {
    let ids = this.byKind.get(kind);
    if (!ids) this.byKind.set(kind, (ids = new Map()));
    const locations = ids.get(id);
    if (locations) locations.push({ line, label });
    else ids.set(id, [{ line, label }]);
  }

  has(kind: SourceKind, id: string): boolean {
    return this.byKind.get(kind)?.has(id) ?? false;
  }

  /** Ids given more than once: the kind, the id, the line of the second place and every place as Sure lists them. */
  *duplicates(): Generator<{ kind: SourceKind; id: string; line: number; places: string }> {
    for (const [kind, ids] of this.byKind) {
      for (const [id, locations] of ids) {
        if (locations.length < 2) continue;
        const named = locations.slice(0, MAX_LOCATIONS_NAMED).map((location) => `Line ${location.line} ${location.label}`);
        if (locations.length > MAX_LOCATIONS_NAMED) named.push(`${locations.length - MAX_LOCATIONS_NAMED} more`);
        yield { kind, id, line: locations[1]!.line, places: named.join(", ") };
      }
    }
  }
}
