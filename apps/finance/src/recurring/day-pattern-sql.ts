import { Prisma } from "../generated/prisma/client";
import { circularDistanceSql } from "./recurring-sql";

/** Sure's days_cluster_together?: the days' standard deviation around the expected day is at most 5. */
export const MAX_DAY_DEVIATION = 5;

/**
 * Sure's calculate_expected_day and days_cluster_together?, for many groups at once. Reads a
 * relation `qh(gid, d0, c, ...carry)`: each group's days of the month (0-based, one row per
 * distinct day) with how many occurrences fell on each, plus columns constant within a group
 * (`carry`) that are passed through; defines `day_pattern(gid, ...carry, expected_day, clustered)`.
 *
 * Sure rotates the days by the pivot (0..30, the first found) that makes their span smallest,
 * takes the median of the rotated days (the mean of the middle two rounded half up when even)
 * and rotates it back. The smallest span is 31 minus the widest gap between neighbouring days
 * on the circle, and the first pivot reaching it is 0 when the widest gap is the one that wraps
 * the month's end, else one past the first day that opens a widest gap: no pivot loop needed.
 * The spread test is Sure's population standard deviation of circular distances at most 5,
 * compared exactly in integers: n * sum(c*d^2) - sum(c*d)^2 <= 25 * n^2.
 *
 * Window functions over one relation only, no self-joins: thousands of groups (a family with a
 * million purchases has them) cost a few sorts, never a join the planner could misjudge.
 */
export function dayPatternCtes(carry: readonly string[] = []): Prisma.Sql {
  const carried = Prisma.raw(carry.map((column) => `${column}, `).join(""));
  const dist = circularDistanceSql(Prisma.sql`d0 + 1`, Prisma.sql`expected_day`);
  return Prisma.sql`
  day_gaps AS (
    SELECT qh.*, COALESCE(lead(d0) OVER w, first_value(d0) OVER w + 31) - d0 AS gap, lead(d0) OVER w IS NULL AS wraps
      FROM qh WINDOW w AS (PARTITION BY gid ORDER BY d0)
  ),
  day_widest AS (
    SELECT day_gaps.*, max(gap) OVER (PARTITION BY gid) AS widest FROM day_gaps
  ),
  day_rotated AS (
    SELECT day_pivots.*, (d0 - pivot + 31) % 31 AS r
      FROM (SELECT day_widest.*,
                   CASE WHEN bool_or(wraps AND gap = widest) OVER g THEN 0 ELSE min(d0 + 1) FILTER (WHERE gap = widest) OVER g END AS pivot
              FROM day_widest WINDOW g AS (PARTITION BY gid)) day_pivots
  ),
  day_ranked AS (
    SELECT day_rotated.*, sum(c) OVER (PARTITION BY gid ORDER BY r) AS upto, sum(c) OVER (PARTITION BY gid) AS total FROM day_rotated
  ),
  day_expected AS (
    SELECT day_medians.*, ((r_low + r_high + 1) / 2 + pivot) % 31 + 1 AS expected_day
      FROM (SELECT day_ranked.*,
                   min(r) FILTER (WHERE upto - c <= (total - 1) / 2 AND (total - 1) / 2 < upto) OVER g AS r_low,
                   min(r) FILTER (WHERE upto - c <= total / 2 AND total / 2 < upto) OVER g AS r_high
              FROM day_ranked WINDOW g AS (PARTITION BY gid)) day_medians
  ),
  day_pattern AS (
    SELECT gid, ${carried}expected_day::int AS expected_day,
           total * sum(c::bigint * ${dist} * ${dist}) - sum(c::bigint * ${dist}) * sum(c::bigint * ${dist})
             <= ${MAX_DAY_DEVIATION * MAX_DAY_DEVIATION} * total * total AS clustered
      FROM day_expected GROUP BY gid, ${carried}expected_day, total
  )`;
}
