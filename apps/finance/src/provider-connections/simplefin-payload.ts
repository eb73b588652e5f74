import { z } from "zod";
import { CurrencyCodeSchema, minorUnitDigits, type AccountType } from "@hearth/contracts";
import { isoDateOf, todayIso } from "../ledger/dates";
import { minorUnitsOf, parseDecimal, roundDecimal } from "../imports/parsing/number-format";

/** A transaction of a bridge account, as the ledger writes it. */
export interface BridgeTransaction {
  /** Sure's external id of a SimpleFIN transaction: `simplefin_<id>` (unique within its account). */
  externalId: string;
  date: string;
  /** The ledger's sign: positive is money out (SimpleFIN's negative amounts), negative money in. */
  amountCents: bigint;
  name: string;
  notes: string | null;
}

export interface BridgeInstitution {
  name: string | null;
  domain: string | null;
  url: string | null;
}

/** An account the bridge reported, read into the ledger's terms. */
export interface BridgeAccount {
  externalId: string;
  name: string;
  /** Null when the bridge's currency is no ISO 4217 code (SimpleFIN allows a URL for custom ones): the account is left unlinked. */
  currency: string | null;
  /** The currency as the bridge named it (clipped), kept with the provider's account. */
  bridgeCurrency: string;
  accountType: Extract<AccountType, "depository" | "credit_card">;
  /** The balance as the ledger keeps it (a card's debt positive); null when it could not be read. */
  balanceCents: bigint | null;
  balanceDate: string;
  institution: BridgeInstitution;
  transactions: BridgeTransaction[];
  /** Pending transactions (written once posted) and ones that could not be read. */
  skippedPending: number;
  skippedInvalid: number;
}

export interface BridgeAnswer {
  accounts: BridgeAccount[];
  /** Entries of the bridge's `errors` (their text is not kept: it is no API, and may name the bank login). */
  errorCount: number;
  /** Accounts that could not be read at all. */
  skippedAccounts: number;
}

const Text = (max: number) => z.string().max(max);
const Amount = z.union([z.string().max(64), z.number()]);
const Epoch = z.union([z.number(), z.string().regex(/^\d{1,12}$/)]).transform(Number);

const AnswerSchema = z.object({
  errors: z.array(z.unknown()).nullish(),
  accounts: z.array(z.unknown()).max(2_000),
});

const OrgSchema = z.object({
  name: Text(255).nullish(),
  domain: Text(255).nullish(),
  url: Text(2048).nullish(),
  "sfin-url": Text(2048).nullish(),
});

const AccountSchema = z.object({
  id: z.union([Text(255).min(1), z.number()]).transform(String),
  name: Text(1000),
  currency: Text(2048),
  balance: Amount,
  "balance-date": Epoch.nullish(),
  org: z.unknown().optional(),
  transactions: z.array(z.unknown()).max(100_000).nullish(),
});

const TransactionSchema = z.object({
  id: z.union([Text(255).min(1), z.number()]).transform(String),
  posted: Epoch.nullish(),
  transacted_at: Epoch.nullish(),
  amount: Amount,
  description: Text(10_000).nullish(),
  payee: Text(10_000).nullish(),
  memo: Text(10_000).nullish(),
  pending: z.boolean().nullish(),
});
type RawTransaction = z.infer<typeof TransactionSchema>;

const NAME_LIMIT = 500;
const ACCOUNT_NAME_LIMIT = 200;
const NOTES_LIMIT = 10_000;
/** The ledger's calendar (see LedgerDateSchema). */
const FIRST_DAY = "1970-01-01";
const LAST_DAY = "2099-12-31";

/** Sure's Simplefin::AccountTypeMapper, as far as Hearth needs it: cards by their name, everything else a deposit account. */
const CARD_NAME = /\b(credit|card|visa|mastercard|amex|american express|discover)\b/i;

/** A decimal amount as minor units of the currency (more decimals than it has are rounded half away from zero), or null. */
export function centsOfAmount(amount: string | number, currency: string): bigint | null {
  if (typeof amount === "number" && !Number.isFinite(amount)) return null;
  const parsed = parseDecimal(String(amount), "1,234.56");
  if (!parsed.ok) return null;
  const digits = minorUnitDigits(currency);
  const units = minorUnitsOf(roundDecimal(parsed.decimal, digits), digits);
  return units.ok ? units.minorUnits : null;
}

/** The UTC day of a UNIX time, or null outside the ledger's calendar. */
function dayOf(epochSeconds: number): string | null {
  if (!Number.isSafeInteger(epochSeconds) || epochSeconds <= 0) return null;
  const day = isoDateOf(new Date(epochSeconds * 1000));
  return day >= FIRST_DAY && day <= LAST_DAY ? day : null;
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
const present = (text: string | null | undefined): string | null => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
};

/** Sure's SimplefinEntry::Processor: pending when flagged so, or posted at 0 with a transaction time. */
function isPending(raw: RawTransaction): boolean {
  return raw.pending === true || (raw.posted === 0 && (raw.transacted_at ?? 0) > 0);
}

/** Sure's names: "payee - description" when both differ, else either, else the memo. */
function nameOf(raw: RawTransaction): string {
  const payee = present(raw.payee);
  const description = present(raw.description);
  if (payee && description && payee !== description) return `${payee} - ${description}`;
  return payee ?? description ?? present(raw.memo) ?? "Unknown transaction";
}

/** Sure's notes: the memo, and the payee when the description does not say it. */
function notesOf(raw: RawTransaction): string | null {
  const memo = present(raw.memo);
  const payee = present(raw.payee);
  const parts = [...(memo ? [memo] : []), ...(payee && payee !== present(raw.description) ? [`Payee: ${payee}`] : [])];
  return parts.length > 0 ? clip(parts.join(" | "), NOTES_LIMIT) : null;
}

/** An http(s) URL without user information, or null: an institution's URL is shown, so nothing secret may ride in it. */
function publicUrl(text: string | null | undefined): string | null {
  const value = present(text);
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.toString();
  } catch {
    return null;
  }
}

function institutionOf(org: unknown): BridgeInstitution {
  const parsed = OrgSchema.safeParse(org);
  if (!parsed.success) return { name: null, domain: null, url: null };
  const url = publicUrl(parsed.data.url) ?? publicUrl(parsed.data["sfin-url"]);
  // Sure derives a missing domain from the URL.
  const domain = present(parsed.data.domain) ?? (url ? new URL(url).hostname.replace(/^www\./, "") : null);
  return { name: present(parsed.data.name), domain, url };
}

function readTransactions(raws: readonly unknown[], currency: string | null) {
  const transactions: BridgeTransaction[] = [];
  const seen = new Set<string>();
  let skippedPending = 0;
  let skippedInvalid = 0;
  for (const item of raws) {
    const parsed = TransactionSchema.safeParse(item);
    if (!parsed.success || currency === null) {
      skippedInvalid += 1;
      continue;
    }
    const raw = parsed.data;
    if (isPending(raw)) {
      skippedPending += 1;
      continue;
    }
    const date = dayOf(raw.posted ?? 0) ?? dayOf(raw.transacted_at ?? 0);
    const bankCents = centsOfAmount(raw.amount, currency);
    const externalId = `simplefin_${raw.id}`;
    if (date === null || bankCents === null || seen.has(externalId)) {
      skippedInvalid += 1;
      continue;
    }
    seen.add(externalId);
    // SimpleFIN counts money out as negative; the ledger as positive (Sure negates it the same way).
    transactions.push({ externalId, date, amountCents: -bankCents, name: clip(nameOf(raw), NAME_LIMIT), notes: notesOf(raw) });
  }
  return { transactions, skippedPending, skippedInvalid };
}

function readAccount(item: unknown, today: string): BridgeAccount | null {
  const parsed = AccountSchema.safeParse(item);
  if (!parsed.success) return null;
  const raw = parsed.data;
  const currency = CurrencyCodeSchema.safeParse(raw.currency.trim().toUpperCase()).success ? raw.currency.trim().toUpperCase() : null;
  const name = clip(present(raw.name) ?? "SimpleFIN account", ACCOUNT_NAME_LIMIT);
  const accountType = CARD_NAME.test(name) ? "credit_card" : "depository";
  const bankCents = currency === null ? null : centsOfAmount(raw.balance, currency);
  return {
    externalId: raw.id,
    name,
    currency,
    bridgeCurrency: clip(raw.currency.trim(), 255),
    accountType,
    // A card's balance is what is owed: SimpleFIN reports it negative, the ledger keeps it positive.
    balanceCents: bankCents === null ? null : accountType === "credit_card" ? -bankCents : bankCents,
    balanceDate: dayOf(raw["balance-date"] ?? 0) ?? today,
    institution: institutionOf(raw.org),
    ...readTransactions(raw.transactions ?? [], currency),
  };
}

/** Reads GET /accounts' JSON (SimpleFIN protocol v1); null when it is not that shape at all. */
export function readBridgeAnswer(json: unknown, today = todayIso()): BridgeAnswer | null {
  const answer = AnswerSchema.safeParse(json);
  if (!answer.success) return null;
  const accounts: BridgeAccount[] = [];
  const ids = new Set<string>();
  let skippedAccounts = 0;
  for (const item of answer.data.accounts) {
    const account = readAccount(item, today);
    // The same id twice is one account (the first one counts).
    if (!account || ids.has(account.externalId)) {
      skippedAccounts += 1;
      continue;
    }
    ids.add(account.externalId);
    accounts.push(account);
  }
  return { accounts, errorCount: answer.data.errors?.length ?? 0, skippedAccounts };
}
