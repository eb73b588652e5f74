/**
 * Prisma loads `include`d relations with further queries: an account the background worker
 * removes in between leaves a required relation null. Such a row is on its way out; lists leave
 * it out and lookups answer 404, instead of failing.
 */
export function isComplete(...relations: unknown[]): boolean {
  return relations.every((relation) => relation !== null && relation !== undefined);
}
