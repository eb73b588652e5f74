import type { IdentityDb, IdentityTx } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import type { DeviceFacts } from "../sessions/session-repository";

/** The claims a ticket keeps of a verified ID token: who, and what decides their role. */
export interface TicketClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  roleClaim: unknown;
}

export type TicketKind = "exchange" | "linking";

export interface NewFlow {
  providerId: string;
  stateHash: string;
  nonce: string;
  /** Sealed. */
  codeVerifier: string;
  callbackUrl: string;
  appRedirectUri: string;
  purpose: "login" | "test";
  startedById: string | null;
  device: DeviceFacts | null;
  expiresAt: Date;
}

export interface NewTicket {
  codeHash: string;
  kind: TicketKind;
  providerId: string;
  userId: string | null;
  claims: TicketClaims;
  device: DeviceFacts | null;
  expiresAt: Date;
}

/**
 * SSO sign-in state: flows in progress (state hashed, verifier sealed), one-time tickets (code
 * hashed) and the provider accounts linked to users. JSON columns are read back typed here.
 * Methods taking `tx` run inside the caller's transaction.
 */
export function createSsoRepository(db: IdentityDb) {
  return {
    /** Whether the family invited this email and the invitation is still open (Sure's app tells the person so). */
    async hasPendingInvitation(familyId: string, email: string, now = new Date()): Promise<boolean> {
      return (await db.invitation.count({ where: { familyId, email, acceptedAt: null, expiresAt: { gt: now } }, take: 1 })) > 0;
    },

    async createFlow(flow: NewFlow): Promise<void> {
      await db.ssoFlow.create({ data: { ...flow, device: (flow.device ?? undefined) as Prisma.InputJsonObject | undefined } });
    },

    async findFlow(stateHash: string) {
      const flow = await db.ssoFlow.findUnique({ where: { stateHash }, include: { provider: true } });
      return flow && { ...flow, device: flow.device as DeviceFacts | null };
    },

    /** Spends a flow; false when it was used already. */
    async consumeFlow(id: string, now: Date): Promise<boolean> {
      const claimed = await db.ssoFlow.updateMany({ where: { id, consumedAt: null }, data: { consumedAt: now } });
      return claimed.count === 1;
    },

    async createTicket(ticket: NewTicket): Promise<void> {
      await db.ssoTicket.create({
        data: { ...ticket, claims: ticket.claims as unknown as Prisma.InputJsonObject, device: (ticket.device ?? {}) as Prisma.InputJsonObject },
      });
    },

    /** A ticket as it stands, without spending it. */
    peekTicket: (codeHash: string) => db.ssoTicket.findUnique({ where: { codeHash } }),

    async findTicket(tx: IdentityTx, codeHash: string) {
      const ticket = await tx.ssoTicket.findUnique({ where: { codeHash }, include: { provider: true } });
      return ticket && { ...ticket, claims: ticket.claims as unknown as TicketClaims, device: ticket.device as unknown as DeviceFacts };
    },

    /** Spends a ticket; false when it was spent already. */
    async consumeTicket(tx: IdentityTx, id: string, now: Date): Promise<boolean> {
      const spent = await tx.ssoTicket.updateMany({ where: { id, consumedAt: null }, data: { consumedAt: now } });
      return spent.count === 1;
    },

    /** The user the provider account is linked to (with their membership), if any. */
    findLinkedIdentity: (providerId: string, subject: string) =>
      db.ssoIdentity.findUnique({ where: { providerId_subject: { providerId, subject } }, include: { user: { include: { membership: true } } } }),

    /** A user an admin's provider test is recorded for. */
    findUserRef: (userId: string) => db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } }),

    findUserWithMembership: (tx: IdentityTx, userId: string) => tx.user.findUnique({ where: { id: userId }, include: { membership: true } }),

    /** An account to link, found by the email its owner proves with their password. */
    findLinkingUser: (email: string) => db.user.findUnique({ where: { email }, include: { membership: true, ssoIdentities: true } }),

    /** A provider account already linked fails as a unique violation. */
    async linkIdentity(
      tx: IdentityTx,
      identity: { userId: string; providerId: string; subject: string; email: string | null; lastLoginAt: Date },
    ): Promise<void> {
      await tx.ssoIdentity.create({ data: identity });
    },

    async markIdentityLogin(tx: IdentityTx, providerId: string, subject: string, now: Date): Promise<void> {
      await tx.ssoIdentity.update({ where: { providerId_subject: { providerId, subject } }, data: { lastLoginAt: now } });
    },
  };
}
export type SsoRepository = ReturnType<typeof createSsoRepository>;
