/** Whether `delimiter` occurs in `value` without a backslash before it. */
function hasUnescaped(value: string, delimiter: string): boolean {
  let escaping = false;
  for (const char of value) {
    if (escaping) escaping = false;
    else if (char === "\\") escaping = true;
    else if (char === delimiter) return true;
  }
  return false;
}

/** Splits on `delimiter`; a backslash escapes a comma, a pipe, itself, or the delimiter (other escapes are kept as written). */
function splitEscaped(value: string, delimiter: string): string[] {
  const names: string[] = [];
  let current = "";
  let escaping = false;
  for (const char of value) {
    if (escaping) {
      current += char === delimiter || char === "," || char === "|" || char === "\\" ? char : `\\${char}`;
      escaping = false;
    } else if (char === "\\") {
      escaping = true;
    } else if (char === delimiter) {
      names.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (escaping) current += "\\";
  names.push(current);
  return names;
}

/**
 * Sure's Import::Row#tags_list: a tags cell split on commas (older exports) or, when it has no
 * unescaped comma, on pipes (Sure's template: "groceries|essentials"); each name trimmed. A blank
 * cell is one blank name, as in Sure: it is the key of the "no tag" mapping.
 */
export function tagsListOf(cell: string): string[] {
  if (cell.trim() === "") return [""];
  const delimiter = hasUnescaped(cell, ",") ? "," : hasUnescaped(cell, "|") ? "|" : ",";
  return splitEscaped(cell, delimiter).map((name) => name.trim());
}
