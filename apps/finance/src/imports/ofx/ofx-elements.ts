import { Turns } from "../ndjson/turns";
import { StatementFileError, lineAt } from "../statement-files/statement-file-error";
import { ofxElementText } from "./ofx-values";
import { CLOSE, EMPTY, type OfxMarkup } from "./ofx-markup";

/** What a walk over an OFX file's elements tells its reader. */
export interface OfxElementVisitor {
  /** An element with content (an aggregate, or an element whose value is closed by its tag), inside `parent`. */
  open(name: string, parent: string | undefined): void;
  /** An element's value (decoded and trimmed), inside `parent`, itself inside `grandparent`. */
  value(name: string, value: string, parent: string | undefined, grandparent: string | undefined): void;
  close(name: string): void;
}

export const OFX_WALK_LIMITS = { maxDepth: 64, maxValueLength: 32_768 } as const;

/**
 * Walks the elements of a read file in order. An opening tag that is closed further on opens an
 * element: if nothing but text comes before its closing tag it was an element holding that text
 * (XML's "<TRNAMT>-12.50</TRNAMT>"), else an aggregate. An opening tag never closed holds the
 * text after it (SGML's "<TRNAMT>-12.50"). A closing tag closes its element and any still open
 * inside it; one whose element is not open is passed over.
 */
export async function walkOfxElements(markup: OfxMarkup, visitor: OfxElementVisitor, limits = OFX_WALK_LIMITS, signal?: AbortSignal): Promise<void> {
  const turns = new Turns();
  const { text, names } = markup;
  const stack: number[] = [];
  const hadChild: boolean[] = [];
  const nameAt = (depth: number) => (depth >= 0 ? names[markup.nameIds[stack[depth]!]!] : undefined);
  /** The text right after tag `tag`, up to the next tag. */
  const textAfter = (tag: number) => {
    const from = markup.ends[tag]!;
    const to = tag + 1 < markup.count ? markup.starts[tag + 1]! : text.length;
    if (to - from > limits.maxValueLength && text.slice(from, to).trim().length > limits.maxValueLength) {
      throw new StatementFileError(
        "invalid_file_type",
        `The OFX file has a value longer than ${limits.maxValueLength} characters at line ${lineAt(text, from)}`,
      );
    }
    return ofxElementText(text.slice(from, to));
  };
  const valueOf = (tag: number, value: string) => {
    if (hadChild.length > 0) hadChild[hadChild.length - 1] = true;
    visitor.value(names[markup.nameIds[tag]!]!, value, nameAt(stack.length - 1), nameAt(stack.length - 2));
  };

  for (let tag = 0; tag < markup.count; tag++) {
    if (turns.due()) {
      await turns.pause();
      signal?.throwIfAborted();
    }
    const kind = markup.kinds[tag];
    if (kind === EMPTY) {
      valueOf(tag, "");
    } else if (kind === CLOSE) {
      const id = markup.nameIds[tag];
      let depth = stack.length - 1;
      while (depth >= 0 && markup.nameIds[stack[depth]!] !== id) depth--;
      if (depth < 0) continue;
      while (stack.length > depth) {
        const opened = stack.pop()!;
        const withChildren = hadChild.pop()!;
        // Only the element this tag closes may hold text: those it closes on the way were aggregates left open.
        if (!withChildren && stack.length === depth) valueOf(opened, textAfter(opened));
        visitor.close(names[markup.nameIds[opened]!]!);
      }
    } else if (markup.closed[tag] === 1) {
      if (stack.length >= limits.maxDepth) {
        throw new StatementFileError(
          "invalid_file_type",
          `The OFX file nests elements more than ${limits.maxDepth} deep at line ${lineAt(text, markup.starts[tag]!)}`,
        );
      }
      if (hadChild.length > 0) hadChild[hadChild.length - 1] = true;
      visitor.open(names[markup.nameIds[tag]!]!, nameAt(stack.length - 1));
      stack.push(tag);
      hadChild.push(false);
    } else {
      valueOf(tag, textAfter(tag));
    }
  }
  while (stack.length > 0) {
    const opened = stack.pop()!;
    hadChild.pop();
    visitor.close(names[markup.nameIds[opened]!]!);
  }
}
