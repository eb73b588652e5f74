/** Sure's tag palette: a tag created without a colour gets one of these. */
export const TAG_COLORS = ["#e99537", "#4da568", "#6471eb", "#db5a54", "#df4e92", "#c44fe9", "#eb5429", "#61c9ea", "#805dee", "#6ad28a"] as const;

export function pickTagColor(random: () => number = Math.random): string {
  return TAG_COLORS[Math.floor(random() * TAG_COLORS.length)] ?? TAG_COLORS[0];
}
