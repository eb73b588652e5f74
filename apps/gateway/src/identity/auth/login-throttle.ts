import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { clientIpBucket } from "../../net/client-ip-bucket";
import { createLoginThrottleRepository, type ThrottleRule } from "./login-throttle-repository";

export interface LoginThrottleOptions {
  /** Failed logins allowed per account before it locks. */
  accountFailures: number;
  /** Failed logins allowed per client IP (all accounts together) before it locks. */
  ipFailures: number;
  /** Wrong second-factor codes (TOTP or backup) allowed per user, at login and in the MFA settings together. */
  secondFactorFailures: number;
  /** First lockout; each further failure doubles it, up to `maxLockSeconds`. */
  baseLockSeconds: number;
  maxLockSeconds: number;
  /** A key with no failure for this long starts again from zero. */
  forgetAfterSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  accountFailures: 5,
  // A household's or an office's shared address: many people, each mistyping now and then.
  ipFailures: 100,
  secondFactorFailures: 5,
  baseLockSeconds: 30,
  maxLockSeconds: 3600,
  forgetAfterSeconds: 3600,
};

/** What an admitted attempt learns: whether it is the one that started a lockout (recorded once, if it then fails). */
export interface Admission {
  lockStarted: boolean;
  /** The client IP it was counted against: none when there is none, or when the IP was locked and the device is one the user signed in on before. */
  countedIp: string | null;
}

interface ThrottleKey {
  key: string;
  allowance: number;
  /** What the person is told when this key is locked. */
  locked: string;
}

/** "45 seconds", "3 minutes", "1 hour": how long until the lock ends, as a person reads it. */
export function untilUnlocked(seconds: number): string {
  const [amount, unit] = seconds < 60 ? [seconds, "second"] : seconds < 3600 ? [Math.ceil(seconds / 60), "minute"] : [Math.ceil(seconds / 3600), "hour"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/**
 * A lockout, with its sentence in `error` (Sure's app shows `error`; the code stays in `code`) and
 * when to come back in `details` and `Retry-After`.
 */
function lockedOut(lockedUntil: Date | null, now: Date, what: string): AppError {
  const resetInSeconds = Math.max(1, Math.ceil(((lockedUntil?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  return new AppError("rate_limit_exceeded", {
    message: `${what} Try again in ${untilUnlocked(resetInSeconds)}.`,
    details: { reset_in_seconds: resetInSeconds },
    sentenceInError: true,
  });
}

/**
 * Per-account, per-IP and per-user (second factor) throttling with exponential lockout. Every
 * attempt is counted before its password or code is checked, and only counted attempts are
 * checked, so parallel guesses get no more checks than the allowance; an attempt that turns out
 * not to be a failure is taken back. Keyed by the normalised email whether or not an account
 * has it, so a lockout says nothing about which emails exist.
 */
export function createLoginThrottle(db: IdentityDb, options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE) {
  const throttles = createLoginThrottleRepository(db);
  const ruleOf = (key: ThrottleKey): ThrottleRule => ({ ...options, allowance: key.allowance });
  const accountKey = (email: string): ThrottleKey => ({
    key: `email:${email}`,
    allowance: options.accountFailures,
    locked: "Too many failed sign-ins to this account.",
  });
  // By /64 for IPv6: one subscriber's block is one allowance.
  const ipKey = (ip: string): ThrottleKey => ({
    key: `ip:${clientIpBucket(ip)}`,
    allowance: options.ipFailures,
    locked: "Too many failed sign-ins from this network.",
  });
  const secondFactorKey = (userId: string): ThrottleKey => ({ key: `mfa:${userId}`, allowance: options.secondFactorFailures, locked: "Too many wrong codes." });

  /**
   * Counts the attempt against every key, or against none: a locked key gives back what the
   * others counted. A key that `mayPass` lets through while locked is passed over, not counted.
   */
  async function admit(
    keys: ThrottleKey[],
    now: Date,
    mayPass: (key: ThrottleKey) => Promise<boolean> = async () => false,
  ): Promise<{ counted: ThrottleKey[]; lockStarted: boolean }> {
    const counted: ThrottleKey[] = [];
    let lockStarted = false;
    for (const key of keys) {
      const attempt = await throttles.count(key.key, ruleOf(key), now);
      if (!attempt) {
        if (await mayPass(key)) continue;
        await refund(counted);
        throw lockedOut(await throttles.lockedUntil(key.key), now, key.locked);
      }
      counted.push(key);
      lockStarted ||= attempt.lockedUntil !== null;
    }
    return { counted, lockStarted };
  }

  async function refund(keys: ThrottleKey[]): Promise<void> {
    await Promise.all(keys.map((key) => throttles.uncount(key.key, ruleOf(key))));
  }

  /**
   * The IP first: a locked IP spraying many emails then leaves no row per email. A locked IP lets
   * through an attempt from a device the account is signed in on (`onLiveDevice`, asked only then):
   * on a shared network one person's guessing must not lock out everyone else's phones. A device
   * id is no secret, so this only gives one address what many addresses always had: the account's
   * own allowance still counts, and bounds the guesses at it.
   */
  const loginKeys = (email: string, ip: string | null): ThrottleKey[] => [...(ip ? [ipKey(ip)] : []), accountKey(email)];
  const isIpKey = (key: ThrottleKey) => key.key.startsWith("ip:");

  async function admitLogin(email: string, ip: string | null, now = new Date(), onLiveDevice: () => Promise<boolean> = async () => false): Promise<Admission> {
    const { counted, lockStarted } = await admit(loginKeys(email, ip), now, async (key) => isIpKey(key) && (await onLiveDevice()));
    return { lockStarted, countedIp: counted.some(isIpKey) ? ip : null };
  }

  return {
    /** Counts a login attempt against the account and the IP before the password is checked; 429 while either is locked. */
    admitLogin,

    /** Counts a second-factor code against the user before it is checked; 429 while locked. */
    admitSecondFactor: async (userId: string, now = new Date()): Promise<Pick<Admission, "lockStarted">> => ({
      lockStarted: (await admit([secondFactorKey(userId)], now)).lockStarted,
    }),

    /** The login attempt was no failure (the right password; the code is still to come): its count is taken back (`ip`: the admission's countedIp). */
    refundLogin: (email: string, ip: string | null) => refund(loginKeys(email, ip)),

    /** A successful login clears the account's count; the IP only gets this attempt back (it may be guessing others). */
    async recordSuccess(email: string, ip: string | null = null): Promise<void> {
      await throttles.clear(accountKey(email).key);
      if (ip) await refund([ipKey(ip)]);
    },

    /** A right second-factor code clears the user's count. */
    async secondFactorPassed(userId: string): Promise<void> {
      await throttles.clear(secondFactorKey(userId).key);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
