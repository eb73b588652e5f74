/**
 * An answer is a list of pieces: sentences, and list lines (starting "- ") that each go on a line
 * of their own. Pieces are streamed one by one; the reply's text is their concatenation.
 */
export type Answer = string[];

const isListLine = (piece: string) => piece.startsWith("- ");

/** The pieces with the spacing that joins them: a space between sentences, a line break around list lines. */
export function deltasOf(answer: Answer): string[] {
  return answer.map((piece, at) => {
    if (at === 0) return piece;
    const previous = answer[at - 1]!;
    return `${isListLine(piece) || isListLine(previous) ? "\n" : " "}${piece}`;
  });
}

/** The whole text of an answer. */
export function textOf(answer: Answer): string {
  return deltasOf(answer).join("");
}
