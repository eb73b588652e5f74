import { AsyncLocalStorage } from "node:async_hooks";
import type { IdentityDb, IdentityTx } from "../../db";
import { notifyFamilyMembers, notifyUsers } from "./credential-announcement-queries";

/** The users whose credentials the current unit of work announced (see collectCredentialChanges). */
const announced = new AsyncLocalStorage<Set<string>>();

/**
 * Runs `work` noting every user whose credentials it announces, so the caller can drop them from
 * this instance's memory once the work committed: the instance that made a change applies it to
 * the very next request, without waiting for its own notification to come back.
 */
export async function collectCredentialChanges<T>(work: () => Promise<T>): Promise<{ result: T; userIds: string[] }> {
  const userIds = new Set<string>();
  const result = await announced.run(userIds, work);
  return { result, userIds: [...userIds] };
}

/** The channel on which a user's credential changes are announced to every gateway instance (credential-changes.ts listens). */
export const CREDENTIAL_CHANNEL = "hearth_credentials";

/**
 * Announces that the users' credentials changed (a key or session revoked, a suspension or
 * reinstatement, a role or family change, a deletion). Inside a transaction PostgreSQL delivers
 * it at commit, so no instance drops its memory of a change that was rolled back, nor misses one
 * that committed. Every write that can end or alter a credential calls this.
 */
export async function announceCredentialChange(db: IdentityDb | IdentityTx, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await notifyUsers(db, CREDENTIAL_CHANNEL, userIds);
  for (const id of userIds) announced.getStore()?.add(id);
}

/** The same for every member of a family (before the family and its members are deleted). */
export async function announceFamilyCredentialChange(tx: IdentityTx, familyId: string): Promise<void> {
  const members = await notifyFamilyMembers(tx, CREDENTIAL_CHANNEL, familyId);
  for (const id of members) announced.getStore()?.add(id);
}
