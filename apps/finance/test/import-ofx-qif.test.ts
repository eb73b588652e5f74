// OFX/QFX and QIF imports (Hearth's additions to Sure's imports): the pure readers (OFX 1.x SGML without
// closing tags, 2.x XML, QFX; a QIF bank file with categories, tags and splits; dates, signs,
// currencies; malformed and oversized files), then OfxImport and QifImport through the real
// procedures (imports.create with publish, the worker, imports.get). QIF cases mirror Sure's
// test/models/qif_import_test.rb where named; Sure has no OFX import.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IMPORT_CSV_LIMITS,
  ImportConfigParamsSchema,
  ImportPreflightSchema,
  ImportResponseSchema,
  ImportRowDiagnosticCollectionSchema,
  ROW_COUNT_WARNING,
  type Actor,
  type ImportConfigParams,
  type ImportDetail,
} from "@hearth/contracts";
import { readOfxImport } from "../src/imports/ofx/ofx-import";
import { decodeOfxText, readOfxAmount, readOfxDate } from "../src/imports/ofx/ofx-values";
import { detectQifDateFormat, normalizeQifDate, readQifDate } from "../src/imports/qif/qif-dates";
import { qifCategoryOf, readQifAmount } from "../src/imports/qif/qif-fields";
import { readQifImport } from "../src/imports/qif/qif-import";
import { StatementFileError } from "../src/imports/statement-files/statement-file-error";
import type { StatementReadOptions } from "../src/imports/statement-files/statement-file";
import { preflightStatementImport } from "../src/imports/statement-files/statement-upload";
import { expectAppError, financeAs, newActor, publishedImport, startFinance, type RunningFinance } from "./support";
import { threadCpuMs } from "./event-loop";

const TODAY = "2026-05-01";

function optionsOf(params: ImportConfigParams = {}, extra: Partial<StatementReadOptions> = {}): StatementReadOptions {
  return { config: ImportConfigParamsSchema.parse(params), defaultCurrency: "USD", today: TODAY, maxRows: IMPORT_CSV_LIMITS.maxRows, ...extra };
}

/** The StatementFileError `run` throws (fails the test when it throws none or another). */
async function refusal(run: () => unknown): Promise<StatementFileError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof StatementFileError) return err;
    throw err;
  }
  throw new Error("expected a StatementFileError");
}

// ---------------------------------------------------------------- OFX fixtures

const SGML_HEADER = [
  "OFXHEADER:100",
  "DATA:OFXSGML",
  "VERSION:102",
  "SECURITY:NONE",
  "ENCODING:USASCII",
  "CHARSET:1252",
  "COMPRESSION:NONE",
  "OLDFILEUID:NONE",
  "NEWFILEUID:NONE",
  "",
  "",
].join("\n");

/** An OFX 1.x bank statement as banks write it: SGML, elements holding values left unclosed. */
function sgmlBankStatement(transactions: string, { currency = "<CURDEF>EUR", account = "123456789" } = {}): string {
  return `${SGML_HEADER}<OFX>
<SIGNONMSGSRSV1>
<SONRS>
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<DTSERVER>20250131120000[-5:EST]
<LANGUAGE>ENG
<INTU.BID>3000
</SONRS>
</SIGNONMSGSRSV1>
<BANKMSGSRSV1>
<STMTTRNRS>
<TRNUID>1
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<STMTRS>
${currency}
<BANKACCTFROM>
<BANKID>021000021
<ACCTID>${account}
<ACCTTYPE>CHECKING
</BANKACCTFROM>
<BANKTRANLIST>
<DTSTART>20250101
<DTEND>20250131
${transactions}
</BANKTRANLIST>
<LEDGERBAL>
<BALAMT>1000.00
<DTASOF>20250131
</LEDGERBAL>
</STMTRS>
</STMTTRNRS>
</BANKMSGSRSV1>
</OFX>
`;
}

function sgmlTransaction(fields: Record<string, string>): string {
  return ["<STMTTRN>", ...Object.entries(fields).map(([name, value]) => `<${name}>${value}`), "</STMTTRN>"].join("\n");
}

const SGML_FILE = sgmlBankStatement(
  [
    sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250115120000[-5:EST]", TRNAMT: "-12.34", FITID: "2025011501", NAME: "Corner Coffee", MEMO: "Card 1234" }),
    sgmlTransaction({ TRNTYPE: "CREDIT", DTPOSTED: "20250116", TRNAMT: "2500.50", FITID: "2025011601", NAME: "Salary" }),
  ].join("\n"),
);

/** An OFX 2.x credit card statement: XML, every element closed. */
const XML_FILE = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX>
  <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20250201</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>
  <CREDITCARDMSGSRSV1>
    <CCSTMTTRNRS>
      <TRNUID>0</TRNUID>
      <STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>
      <CCSTMTRS>
        <CURDEF>GBP</CURDEF>
        <CCACCTFROM><ACCTID>4111111111111111</ACCTID></CCACCTFROM>
        <BANKTRANLIST>
          <DTSTART>20250101</DTSTART><DTEND>20250131</DTEND>
          <STMTTRN>
            <TRNTYPE>DEBIT</TRNTYPE>
            <DTPOSTED>20250110000000.000[0:GMT]</DTPOSTED>
            <TRNAMT>-45.00</TRNAMT>
            <FITID>X-1</FITID>
            <NAME>Fish &amp; Chips &#233;t&#xE9; &eacute;</NAME>
            <MEMO></MEMO>
          </STMTTRN>
          <STMTTRN>
            <TRNTYPE>DEBIT</TRNTYPE>
            <DTPOSTED>20250111</DTPOSTED>
            <TRNAMT>-9.99</TRNAMT>
            <FITID>X-2</FITID>
            <PAYEE><NAME>Streaming Co</NAME><ADDR1>1 Main St</ADDR1></PAYEE>
            <CURRENCY><CURRATE>1.17</CURRATE><CURSYM>EUR</CURSYM></CURRENCY>
          </STMTTRN>
          <STMTTRN>
            <TRNTYPE>PAYMENT</TRNTYPE>
            <DTPOSTED>20250112</DTPOSTED>
            <TRNAMT>+100</TRNAMT>
            <FITID>X-3</FITID>
            <MEMO>THANK YOU PAYMENT</MEMO>
          </STMTTRN>
        </BANKTRANLIST>
        <LEDGERBAL><BALAMT>-55.00</BALAMT><DTASOF>20250131</DTASOF></LEDGERBAL>
      </CCSTMTRS>
    </CCSTMTTRNRS>
  </CREDITCARDMSGSRSV1>
</OFX>
`;

// ---------------------------------------------------------------- QIF fixtures (Sure's qif_import_test.rb)

const SAMPLE_QIF = `!Type:Tag
NTRIP2025
^
NVACATION2023
DSummer Vacation 2023
^
!Type:Cat
NFood & Dining
DFood and dining expenses
E
^
NFood & Dining:Restaurants
DRestaurants
E
^
NSalary
DSalary Income
I
^
!Type:CCard
D6/ 4'20
U-99.00
T-99.00
C*
NTXFR
PMerchant A
LFees & Charges
^
D3/29'21
U-28,500.00
T-28,500.00
PTransfer Out
L[Savings Account]
^
D10/ 1'20
U500.00
T500.00
PPayment Received
LFood & Dining/TRIP2025
^
`;

const QIF_WITH_HIERARCHICAL_CATEGORIES = `!Type:Bank
D1/ 1'24
U-150.00
T-150.00
PHardware Store
LHome:Home Improvement
^
D2/ 1'24
U-50.00
T-50.00
PGrocery Store
LFood:Groceries
^
`;

const QIF_WITH_OPENING_BALANCE = `!Type:Bank
D1/ 1'20
U500.00
T500.00
POpening Balance
L[Checking Account]
^
D3/ 1'20
U100.00
T100.00
PFirst Deposit
^
D4/ 1'20
U-25.00
T-25.00
PCoffee Shop
^
`;

const QIF_WITH_SPLITS = `!Type:Cat
NFood & Dining
E
^
NHousehold
E
^
NUtilities
E
^
!Type:Bank
D1/ 1'24
U-150.00
T-150.00
PGrocery & Hardware Store
LFood & Dining
SFood & Dining
$-100.00
EGroceries
SHousehold
$-50.00
ESupplies
^
D1/ 2'24
U-75.00
T-75.00
PElectric Company
LUtilities
^
`;

const QIF_WITH_SPLIT_PLACEHOLDER = `!Type:Bank
D1/ 1'24
U-100.00
T-100.00
PWalmart
L--Split--
SClothing
$-25.00
SFood
$-25.00
SHome Improvement
$-50.00
^
D1/ 2'24
U-30.00
T-30.00
PCoffee Shop
LFood & Dining
^
`;

const EUROPEAN_BANK_QIF = `!Type:Bank
D13/01/2024
U-100.00
T-100.00
PEuropean Store
^
D25/12/2023
U-50.00
T-50.00
PChristmas Shop
^
`;

const AMEX_DDD_MMM_YYYY_QIF = `!Type:CCard
D26 Jan 2026
N20260126
T-25.24
PAMAZON.COM.CA           WWW.AMAZON.CO
M
^
D23 Jan 2026
N20260123
T-10.49
PSKIPTHEDISHES           WINNIPEG (BROAD
M
^
`;

const SAMPLE_INVST_QIF = `!Type:Security
NACME
SACME
TStock
^
!Type:Invst
D1/17'22
NBuy
YACME
I66.10
Q2
T132.20
^
`;

// ---------------------------------------------------------------- OFX reading

describe("OFX: reading a statement", () => {
  it("reads OFX 1.x SGML without closing tags (a QFX with Intuit's INTU.BID): dates, Sure's sign, CURDEF, FITID, NAME and MEMO", async () => {
    const read = await readOfxImport(SGML_FILE, optionsOf());
    expect(read.transactionCount).toBe(2);
    expect(read.config.date_format).toBe("%Y%m%d");
    expect(read.rows.map((row) => row.errors)).toEqual([[], []]);
    const [coffee, salary] = read.rows.map((row) => row.values);
    // TRNAMT -12.34 is money out: Sure's positive amount.
    expect(coffee).toMatchObject({
      date: "2025-01-15",
      amount: "-12.34",
      amount_cents: 1234n,
      currency: "EUR",
      currency_from_file: true,
      name: "Corner Coffee",
      notes: "Card 1234",
      category: "",
      tags: [],
      external_id: "2025011501",
    });
    expect(salary).toMatchObject({ date: "2025-01-16", amount: "2500.50", amount_cents: -250050n, name: "Salary", notes: null, external_id: "2025011601" });
    expect(read.rows[0]?.fields).toMatchObject({ date: "20250115120000[-5:EST]", amount: "-12.34", entity_type: "DEBIT", currency: "EUR" });
  });

  it("reads the same statement written on one line, where an unclosed value runs into the next closing tag", async () => {
    const oneLine = SGML_FILE.replaceAll("\n", "");
    const read = await readOfxImport(oneLine, optionsOf());
    expect(read.rows.map((row) => [row.values?.name, row.values?.amount_cents, row.values?.notes])).toEqual([
      ["Corner Coffee", 1234n, "Card 1234"],
      ["Salary", -250050n, null],
    ]);
    expect((await readOfxImport(SGML_FILE.replaceAll("\n", "\r\n"), optionsOf())).rows.map((row) => row.values?.date)).toEqual(["2025-01-15", "2025-01-16"]);
  });

  it("reads OFX 2.x XML: entities decoded, PAYEE's NAME, MEMO as the name when there is none, a transaction's own CURRENCY", async () => {
    const read = await readOfxImport(XML_FILE, optionsOf());
    expect(read.rows.map((row) => row.errors)).toEqual([[], [], []]);
    expect(read.rows.map((row) => row.values)).toMatchObject([
      { date: "2025-01-10", amount_cents: 4500n, currency: "GBP", name: "Fish & Chips été &eacute;", notes: null, external_id: "X-1" },
      { date: "2025-01-11", amount_cents: 999n, currency: "EUR", currency_from_file: true, name: "Streaming Co", external_id: "X-2" },
      { date: "2025-01-12", amount: "100", amount_cents: -10000n, name: "THANK YOU PAYMENT", notes: null, external_id: "X-3" },
    ]);
  });

  it("takes a CDATA section's text as written (entities inside it too), and names a transaction by its check number before Sure's default", async () => {
    const cdata = XML_FILE.replace(
      "<NAME>Fish &amp; Chips &#233;t&#xE9; &eacute;</NAME>\n            <MEMO></MEMO>",
      "<NAME><![CDATA[EFTPOS <Fish> & Chips &amp;]]></NAME>\n            <MEMO><![CDATA[Card 1234]]> x</MEMO>",
    );
    const [row] = (await readOfxImport(cdata, optionsOf())).rows;
    expect(row?.values).toMatchObject({ name: "EFTPOS <Fish> & Chips &amp;", notes: "Card 1234 x" });
    const checked = sgmlBankStatement(sgmlTransaction({ TRNTYPE: "CHECK", DTPOSTED: "20250120", TRNAMT: "-30", FITID: "C1", CHECKNUM: "1000" }));
    expect((await readOfxImport(checked, optionsOf())).rows[0]?.values).toMatchObject({ name: "Check 1000" });
  });

  it("takes the account's currency when the statement names none, and names a transaction without NAME or MEMO as Sure does", async () => {
    const file = sgmlBankStatement(sgmlTransaction({ TRNTYPE: "FEE", DTPOSTED: "20250120", TRNAMT: "-3", FITID: "F1" }), { currency: "" });
    const [row] = (await readOfxImport(file, optionsOf({}, { defaultCurrency: "CAD" }))).rows;
    expect(row?.values).toMatchObject({ currency: "CAD", currency_from_file: false, name: "Imported item", amount_cents: 300n });
  });

  it("reads OFX amounts strictly: a decimal comma is read, a thousands separator refused rather than guessed at", async () => {
    expect(readOfxAmount("-12,50")).toEqual({ ok: true, value: "-12.50" });
    expect(readOfxAmount("+.5")).toEqual({ ok: true, value: "0.5" });
    expect(readOfxAmount("-0.00")).toEqual({ ok: true, value: "0.00" });
    expect(readOfxAmount("007")).toEqual({ ok: true, value: "7" });
    // ofx-data-extractor reads "-1,000.00" as -1.00000: a thousandfold error, silently.
    for (const bad of ["-1,000.00", "1 000", "12.34.56", "$12", "-", "1e5", ""]) expect(readOfxAmount(bad).ok, bad).toBe(false);
    expect(readOfxAmount("1".repeat(16))).toEqual({ ok: false, message: "Amount is too large" });
    expect(readOfxDate("20250115")).toEqual({ ok: true, value: "2025-01-15" });
    expect(readOfxDate("20240229093000.123[-5:EST]")).toEqual({ ok: true, value: "2024-02-29" });
    for (const bad of ["20250230", "2025-01-15", "202501", "20250115T10"]) expect(readOfxDate(bad).ok, bad).toBe(false);
    expect(decodeOfxText("A &amp; B &lt;C&gt; &#x41;&#66; &bogus; & &#0; &amp")).toBe("A & B <C> AB &bogus; & &#0; &amp");
  });

  it("keeps a transaction it cannot read as a row with its errors: no date, no amount, a bad amount, a date out of range, too many decimals", async () => {
    const file = sgmlBankStatement(
      [
        sgmlTransaction({ TRNTYPE: "DEBIT", TRNAMT: "-1.00", FITID: "A" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250102", FITID: "B" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250103", TRNAMT: "-1,000.00", FITID: "C" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20270101", TRNAMT: "-1.00", FITID: "D" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250104", TRNAMT: "-1.005", FITID: "E" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTUSER: "20250105", TRNAMT: "-2.00", FITID: "F" }),
      ].join("\n"),
    );
    const { rows } = await readOfxImport(file, optionsOf());
    expect(rows.map((row) => row.errors.map((error) => error.message))).toEqual([
      ["Date is required"],
      ["Amount is required"],
      ["Amount is not an OFX amount (digits, with a '.' or ',' before the decimals)"],
      [`Date must be between 1996-05-01 and ${TODAY}`],
      ["Amount has more decimals than EUR allows (2)"],
      [],
    ]);
    expect(rows.map((row) => row.values === null)).toEqual([true, true, true, true, true, false]);
    // DTUSER dates a transaction without DTPOSTED.
    expect(rows[5]?.values?.date).toBe("2025-01-05");
    expect(rows[2]?.fields.amount).toBe("-1,000.00");
  });

  it("refuses what is no OFX, markup it cannot read, and statements it will not guess at, each with the reason", async () => {
    const cases: [string, string, RegExp][] = [
      ["date,amount\n2025-01-01,1", "invalid_file_type", /no <OFX> element/],
      [SGML_FILE.replace("<NAME>Salary", "<NAME>Salt < Pepper"), "invalid_file_type", /"<" that starts no tag .* line \d+/],
      [SGML_FILE.replace("<TRNAMT>-12.34", "<TRNAMT -12.34"), "invalid_file_type", /without its closing >/],
      [SGML_FILE.replace("</STMTTRN>", ""), "invalid_file_type", /<STMTTRN> without its <\/STMTTRN>/],
      [`<OFX>${"<A>".repeat(70)}${"</A>".repeat(70)}</OFX>`, "invalid_file_type", /nests elements more than 64 deep/],
      [`<OFX><MEMO>${"x".repeat(40_000)}</OFX>`, "invalid_file_type", /value longer than 32768 characters/],
      ["<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>", "validation_failed", /no bank or credit card statement/],
      [
        "<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS><CURDEF>USD</INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>",
        "validation_failed",
        /investment statement/,
      ],
    ];
    for (const [file, code, message] of cases) {
      const error = await refusal(() => readOfxImport(file, optionsOf()));
      expect(error.code, file.slice(0, 60)).toBe(code);
      expect(error.message).toMatch(message);
      expect(error.toAppError().toBody()).toMatchObject({ error: code, errors: [error.message] });
    }
    const twoAccounts = SGML_FILE.replace(
      "</STMTTRNRS>",
      `</STMTTRNRS>${sgmlBankStatement("", { account: "555500001111" }).split("<BANKMSGSRSV1>")[1]!.split("</BANKMSGSRSV1>")[0]}`,
    );
    expect((await refusal(() => readOfxImport(twoAccounts, optionsOf()))).message).toMatch(/statements of 2 accounts \(\.\.\.6789, \.\.\.1111\)/);
  });

  it("stays linear and bounded on hostile markup: 10 MB of '<', '&' or one endless value is refused or read within a second", async () => {
    const hostile = [
      `<OFX>${"<".repeat(10 * 1024 * 1024)}`,
      `<OFX><STMTRS><BANKTRANLIST><STMTTRN><NAME>${"&".repeat(10 * 1024 * 1024)}</STMTTRN></BANKTRANLIST></STMTRS></OFX>`,
      `<OFX>${"<A>".repeat(3_000_000)}`,
      `<OFX>${Array.from({ length: 2_000 }, (_, i) => `<N${i}>`).join("")}`,
    ];
    for (const file of hostile) {
      const started = threadCpuMs();
      await expect(readOfxImport(file, optionsOf())).rejects.toThrow(StatementFileError);
      expect(threadCpuMs() - started, file.slice(0, 20)).toBeLessThan(3_000);
    }
  });

  it("keeps the first 10,000 transactions as rows and counts the rest", async () => {
    const many = Array.from({ length: 10_003 }, (_, i) => sgmlTransaction({ DTPOSTED: "20250101", TRNAMT: "-1.00", FITID: `T${i}` })).join("\n");
    const read = await readOfxImport(sgmlBankStatement(many), optionsOf());
    expect(read.transactionCount).toBe(10_003);
    expect(read.rows).toHaveLength(10_000);
  });
});

// ---------------------------------------------------------------- QIF reading

describe("QIF: reading a bank file", () => {
  it("reads Sure's sample: transactions, dates, amounts with commas in Sure's sign, payees, categories, transfers, tags (Sure: 'parse returns correct number of transactions', 'parse extracts dates correctly', 'parse extracts negative amount with commas', 'parse extracts category and ignores transfer accounts', 'parse extracts tags from L field slash suffix')", async () => {
    const read = await readQifImport(SAMPLE_QIF, optionsOf());
    expect(read.transactionCount).toBe(3);
    expect(read.config).toMatchObject({ date_format: "%m/%d/%Y", number_format: "1,234.56" });
    expect(read.rows.map((row) => row.errors)).toEqual([[], [], []]);
    expect(read.rows.map((row) => row.values)).toMatchObject([
      {
        date: "2020-06-04",
        amount: "-99.00",
        amount_cents: 9900n,
        currency: "USD",
        currency_from_file: false,
        name: "Merchant A",
        category: "Fees & Charges",
        tags: [],
      },
      { date: "2021-03-29", amount: "-28500.00", amount_cents: 2850000n, name: "Transfer Out", category: "", tags: [] },
      { date: "2020-10-01", amount: "500.00", amount_cents: -50000n, name: "Payment Received", category: "Food & Dining", tags: ["TRIP2025"] },
    ]);
    expect(read.rows.every((row) => row.values !== null && !("external_id" in row.values))).toBe(true);
    // Sure: "generates row with tags stored as pipe-separated string", "transfer rows have blank category"
    expect(read.rows.map((row) => [row.fields.category, row.fields.tags])).toEqual([
      ["Fees & Charges", ""],
      ["[Savings Account]", ""],
      ["Food & Dining/TRIP2025", "TRIP2025"],
    ]);
  });

  it("files 'Parent:Child' under the child, made under its parent (Sure: 'generates rows with hierarchical category stored as-is', 'create_mappable! creates parent and child categories for hierarchical key')", async () => {
    const { rows } = await readQifImport(QIF_WITH_HIERARCHICAL_CATEGORIES, optionsOf());
    expect(rows.map((row) => [row.fields.category, row.values?.category, row.values?.category_parent])).toEqual([
      ["Home:Home Improvement", "Home Improvement", "Home"],
      ["Food:Groceries", "Groceries", "Food"],
    ]);
    expect(qifCategoryOf("A:B:C/T1: :T2")).toEqual({ category: "B:C", parent: "A", tags: ["T1", "T2"] });
    expect(qifCategoryOf("Parent:")).toEqual({ category: "Parent", parent: null, tags: [] });
    expect(qifCategoryOf("[Checking]/Tag")).toEqual({ category: "", parent: null, tags: [] });
  });

  it("leaves out the Opening Balance record (Sure: 'parse skips Opening Balance transaction', 'Opening Balance row is not generated as a transaction row')", async () => {
    const read = await readQifImport(QIF_WITH_OPENING_BALANCE, optionsOf());
    expect(read.transactionCount).toBe(2);
    expect(read.rows.map((row) => [row.row_number, row.values?.name, row.values?.amount_cents])).toEqual([
      [1, "First Deposit", -10000n],
      [2, "Coffee Shop", 2500n],
    ]);
  });

  it("makes a split record one transaction of its total with L's category, its split lines set aside (Sure: 'parse returns correct count including split transactions', 'parse strips --Split-- placeholder from category')", async () => {
    const splits = (await readQifImport(QIF_WITH_SPLITS, optionsOf())).rows.map((row) => row.values);
    // Sure: "split_categories returns categories from split transactions" (the split's row keeps L's category; S/$/E lines write nothing).
    expect(splits).toMatchObject([
      { name: "Grocery & Hardware Store", amount_cents: 15000n, category: "Food & Dining", notes: null },
      { name: "Electric Company", amount_cents: 7500n, category: "Utilities" },
    ]);
    const placeholder = (await readQifImport(QIF_WITH_SPLIT_PLACEHOLDER, optionsOf())).rows.map((row) => [
      row.values?.name,
      row.values?.category,
      row.values?.amount_cents,
    ]);
    expect(placeholder).toEqual([
      ["Walmart", "", 10000n],
      ["Coffee Shop", "Food & Dining", 3000n],
    ]);
  });

  it("normalises Quicken's dates as Sure does (Sure: the normalize_qif_date and parse_qif_date tests)", async () => {
    expect(normalizeQifDate("6/ 4'20", 2026)).toBe("6/4/2020");
    expect(normalizeQifDate("6/ 4'2020", 2026)).toBe("6/4/2020");
    expect(normalizeQifDate("04.06'20", 2026)).toBe("04.06.2020");
    expect(normalizeQifDate("2020-06-04", 2026)).toBe("2020-06-04");
    expect(normalizeQifDate("26  Jan  2026", 2026)).toBe("26 Jan 2026");
    expect(normalizeQifDate("26 Jan 26", 2026)).toBe("26 Jan 2026");
    // A two-digit year after the current one is last century's.
    expect(normalizeQifDate("1/1'99", 2026)).toBe("1/1/1999");
    expect(normalizeQifDate("  ", 2026)).toBeNull();
    expect(readQifDate("4/ 6'20", "%d/%m/%Y", 2026)).toEqual({ ok: true, value: "2020-06-04" });
    expect(readQifDate("26 Jan 26", "%d %b %Y", 2026)).toEqual({ ok: true, value: "2026-01-26" });
    expect(readQifDate("13/32/2020", "%m/%d/%Y", 2026)).toEqual({ ok: false, message: "Date must exactly match the format: %m/%d/%Y" });
  });

  it("detects the date format from the file's dates, and a date_format other than the default overrides it (Sure: 'generate_rows_from_csv auto-detects European DD/MM/YYYY format', 'auto-detects DD MMM YYYY format', 'respects manually set qif_date_format')", async () => {
    const european = await readQifImport(EUROPEAN_BANK_QIF, optionsOf());
    expect(european.config.date_format).toBe("%d/%m/%Y");
    expect(european.rows.map((row) => row.values?.date)).toEqual(["2024-01-13", "2023-12-25"]);
    const amex = await readQifImport(AMEX_DDD_MMM_YYYY_QIF, optionsOf());
    expect(amex.config.date_format).toBe("%d %b %Y");
    expect(amex.rows[0]?.values).toMatchObject({ name: "AMAZON.COM.CA           WWW.AMAZON.CO", date: "2026-01-26", amount: "-25.24" });

    // Every day 12 or less: both readings fit. Sure's list order would take DD/MM; QifImport's default, US dates, wins the tie here.
    const ambiguous = "!Type:Bank\nD04/06/2020\nT-1.00\n^\nD05/07/2020\nT-2.00\n^\n";
    expect(detectQifDateFormat(["04/06/2020", "05/07/2020"], TODAY)).toBe("%m/%d/%Y");
    expect((await readQifImport(ambiguous, optionsOf())).rows.map((row) => row.values?.date)).toEqual(["2020-04-06", "2020-05-07"]);
    const dayFirst = await readQifImport(ambiguous, optionsOf({ date_format: "%d/%m/%Y" }));
    expect(dayFirst.config.date_format).toBe("%d/%m/%Y");
    expect(dayFirst.rows.map((row) => row.values?.date)).toEqual(["2020-06-04", "2020-07-05"]);
    // An override that does not fit fails the rows, naming the format.
    expect((await readQifImport(EUROPEAN_BANK_QIF, optionsOf({ date_format: "%Y-%m-%d" }))).rows[0]?.errors).toEqual([
      { field: "date", message: "Date must exactly match the format: %Y-%m-%d" },
    ]);
    expect(detectQifDateFormat(["not-a-date"], TODAY)).toBe("%m/%d/%Y");
  });

  it("reads amounts per number_format, refusing a grouping it would misread (Sure strips every comma: '-99,00' would be -9900)", async () => {
    expect(readQifAmount("-28,500.00", "1,234.56")).toEqual({ ok: true, value: "-28500.00" });
    expect(readQifAmount("-1.234,56", "1.234,56")).toEqual({ ok: true, value: "-1234.56" });
    expect(readQifAmount("-99,00", "1,234.56")).toEqual({ ok: false, message: "Amount is not a number in the format 1,234.56" });
    expect(readQifAmount("-99.00", "1.234,56").ok).toBe(false);
    expect(readQifAmount("-99,00", "1.234,56")).toEqual({ ok: true, value: "-99.00" });
    for (const bad of ["$12.00", "12 EUR", "(12.00)", "12-"]) expect(readQifAmount(bad, "1,234.56").ok, bad).toBe(false);
    const { rows } = await readQifImport(
      "!Type:Bank\nD1/1'24\nT-99,00\nPCafé\n^\nT-1.00\nPNo date\n^\nD1/2'24\nPNo amount\n^\nD1/3'24\nT12abc\n^\n",
      optionsOf(),
    );
    expect(rows.map((row) => row.errors.map((error) => error.message))).toEqual([
      ["Amount is not a number in the format 1,234.56"],
      ["Date is required"],
      ["Amount is required"],
      ["Amount is not a number in the format 1,234.56"],
    ]);
  });

  it("refuses what is no QIF, an investment account, several accounts, and lines past the cap, each with the reason", async () => {
    const cases: [string, string, RegExp][] = [
      ["<OFX></OFX>", "invalid_file_type", /no !Type: header/],
      ["date,amount\n2024-01-01,1", "invalid_file_type", /no !Type: header/],
      ["!Type:Cat\nNFood\nE\n^\n", "validation_failed", /lists no transactions/],
      [SAMPLE_INVST_QIF, "validation_failed", /investment account/],
      [`${QIF_WITH_SPLITS}!Account\nNSavings\nTBank\n^\n!Type:Bank\nD1/3'24\nT-1.00\n^\n`, "validation_failed", /2 accounts' transactions/],
      [`!Type:Bank\nP${"x".repeat(40_000)}\n^\n`, "invalid_file_type", /line 2 is longer than 32768 characters/],
    ];
    for (const [file, code, message] of cases) {
      const error = await refusal(() => readQifImport(file, optionsOf()));
      expect(error.code, file.slice(0, 40)).toBe(code);
      expect(error.message).toMatch(message);
    }
    // An account list before the transactions is no second account (Quicken's "!Account" header).
    const withHeader = `!Option:AutoSwitch\n!Account\nNChecking\nTBank\n^\n!Clear:AutoSwitch\n!Account\nNChecking\nTBank\n^\n${QIF_WITH_OPENING_BALANCE}`;
    expect((await readQifImport(withHeader.replaceAll("\n", "\r\n"), optionsOf())).rows.map((row) => row.values?.name)).toEqual([
      "First Deposit",
      "Coffee Shop",
    ]);
  });

  it("names each row's account from its section's !Account record, within an account name's length", async () => {
    const file = (name: string) => `!Account\nN${name}\nTBank\n^\n!Type:Bank\nD1/2'24\nT-1.00\nPShop\n^\n`;
    const read = await readQifImport(file("  Joint Account  "), { ...optionsOf(), hasAccount: false });
    expect(read.rows.map((row) => [row.fields.account, row.values?.account])).toEqual([["Joint Account", "Joint Account"]]);
    const long = await readQifImport(file("x".repeat(201)), { ...optionsOf(), hasAccount: false });
    expect(long.rows[0]!.errors).toEqual([{ field: "account", message: "Account is too long (maximum is 200 characters)" }]);
  });

  it("keeps the first 10,000 transactions as rows and counts the rest; a 10 MB file of empty records reads in time", async () => {
    const many = `!Type:Bank\n${"D1/1'24\nT-1.00\nPX\n^\n".repeat(10_005)}`;
    const read = await readQifImport(many, optionsOf());
    expect(read.transactionCount).toBe(10_005);
    expect(read.rows).toHaveLength(10_000);
    const started = threadCpuMs();
    const hostile = await readQifImport(`!Type:Bank\n${"C\n^\n".repeat(2_500_000)}`, optionsOf());
    expect(hostile.transactionCount).toBe(2_500_000);
    expect(threadCpuMs() - started).toBeLessThan(5_000);
  });
});

describe("preflight of OFX and QIF files", () => {
  const options = { currency: "USD", today: TODAY };

  it("answers counts, rows in error and the limits, keeping nothing", async () => {
    const ofx = ImportPreflightSchema.omit({ encoding: true }).parse(
      await preflightStatementImport({ type: "OfxImport", content: SGML_FILE, filename: undefined, contentType: undefined }, {}, options),
    );
    expect(ofx).toMatchObject({
      type: "OfxImport",
      valid: true,
      content: { filename: "import.ofx", content_type: "application/x-ofx" },
      stats: { rows_count: 2, valid_rows_count: 2, invalid_rows_count: 0 },
      errors: [],
      warnings: [],
    });
    const qif = await preflightStatementImport(
      { type: "QifImport", content: "!Type:Bank\nD1/1'24\nT-99,00\n^\nD1/2'24\nT-1\n^\n", filename: "a.qif", contentType: "application/qif" },
      {},
      options,
    );
    expect(qif).toMatchObject({
      valid: false,
      stats: { rows_count: 2, valid_rows_count: 1, invalid_rows_count: 1 },
      errors: [{ code: "validation_failed", message: "Row 1: Amount is not a number in the format 1,234.56" }],
    });
    const badConfig = await preflightStatementImport(
      { type: "QifImport", content: SAMPLE_QIF, filename: undefined, contentType: undefined },
      { date_format: "%Q" },
      options,
    );
    expect(badConfig).toMatchObject({ valid: false, errors: [{ code: "validation_failed", message: "Date format is not included in the list" }] });
    const many = `!Type:Bank\n${"D1/1'24\nT-1.00\n^\n".repeat(10_001)}`;
    expect(await preflightStatementImport({ type: "QifImport", content: many, filename: undefined, contentType: undefined }, {}, options)).toMatchObject({
      valid: true,
      stats: { rows_count: 10_001 },
      warnings: [ROW_COUNT_WARNING],
    });
    const empty = await preflightStatementImport(
      { type: "OfxImport", content: sgmlBankStatement(""), filename: undefined, contentType: undefined },
      {},
      options,
    );
    expect(empty).toMatchObject({ valid: false, stats: { rows_count: 0 }, errors: [{ code: "no_data_rows" }] });
  });

  it("answers a file refused as a whole, and one too large, with its 422", async () => {
    const upload = (content: string, filename?: string) => ({ type: "OfxImport" as const, content, filename, contentType: undefined });
    await expect(preflightStatementImport(upload("hello"), {}, options)).rejects.toThrow(expect.objectContaining({ code: "invalid_file_type" }));
    const huge = "x".repeat(IMPORT_CSV_LIMITS.maxBytes + 1);
    await expect(preflightStatementImport(upload(huge), {}, options)).rejects.toThrow(expect.objectContaining({ code: "content_too_large" }));
    await expect(preflightStatementImport(upload(huge, "big.ofx"), {}, options)).rejects.toThrow(expect.objectContaining({ code: "file_too_large" }));
    await expect(preflightStatementImport(upload(""), {}, options)).rejects.toThrow(expect.objectContaining({ code: "missing_content" }));
  });
});

// ---------------------------------------------------------------- through the procedures

describe("OfxImport and QifImport through imports.create", () => {
  let finance: RunningFinance;
  beforeAll(async () => {
    finance = await startFinance();
  });
  afterAll(async () => finance?.stop());

  async function newFamily(actor: Actor = newActor()) {
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2024-01-01" },
    });
    return { actor, familyId: actor.familyId, call, accountId: account.id as string };
  }
  type Family = Awaited<ReturnType<typeof newFamily>>;

  async function published(family: Family, type: string, content: string, extra: Record<string, unknown> = {}): Promise<ImportDetail> {
    const detail = await publishedImport(family.call, { type, account_id: family.accountId, raw_file_content: content, ...extra });
    expect(detail.error ?? null, "the import failed").toBeNull();
    return detail;
  }

  const entriesOf = (family: Family) =>
    finance.db.entry.findMany({
      where: { accountId: family.accountId, kind: "transaction" },
      orderBy: [{ date: "asc" }, { externalId: "asc" }],
      include: { category: { include: { parent: true } }, tags: { include: { tag: true } } },
    });

  const OFX = sgmlBankStatement(
    [
      sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250115", TRNAMT: "-4.50", FITID: "F-1", NAME: "Corner Coffee", MEMO: "flat white" }),
      sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250115", TRNAMT: "-4.50", FITID: "F-2", NAME: "Corner Coffee" }),
      sgmlTransaction({ TRNTYPE: "CREDIT", DTPOSTED: "20250116", TRNAMT: "2500.00", FITID: "F-3", NAME: "Salary" }),
    ].join("\n"),
    { currency: "<CURDEF>USD" },
  );

  it("writes an OFX statement's transactions with their FITIDs and the family's rules applied; the same file again skips every row by FITID", async () => {
    const family = await newFamily();
    const coffee = await family.call("categories.create", { category: { name: "Coffee runs" } });
    await family.call("rules.create", {
      rule: {
        name: "Coffee",
        conditions: [{ condition_type: "transaction_name", operator: "like", value: "coffee" }],
        actions: [{ action_type: "set_transaction_category", value: coffee.id }],
      },
    });
    const first = await published(family, "OfxImport", OFX);
    expect(first).toMatchObject({
      type: "OfxImport",
      status: "complete",
      result: { transactions: 3, skipped_duplicates: 0, claimed_duplicates: 0 },
      progress: { rows_done: 3, rows_total: 3 },
    });
    expect(first.configuration.date_format).toBe("%Y%m%d");
    const entries = await entriesOf(family);
    expect(
      entries.map((entry) => [entry.externalId, entry.source, entry.name, entry.amountCents, entry.currency, entry.notes, entry.category?.name ?? null]),
    ).toEqual([
      ["F-1", "ofx", "Corner Coffee", 450n, "USD", "flat white", "Coffee runs"],
      ["F-2", "ofx", "Corner Coffee", 450n, "USD", null, "Coffee runs"],
      ["F-3", "ofx", "Salary", -250000n, "USD", null, null],
    ]);
    expect(entries.every((entry) => entry.importId === first.id)).toBe(true);

    const again = await published(family, "OfxImport", OFX);
    expect(again.result).toEqual({ transactions: 0, skipped_duplicates: 3, claimed_duplicates: 0 });
    expect(await entriesOf(family)).toHaveLength(3);

    // The next statement overlaps: its new FITID is written though a coffee of that day, amount and name exists; a FITID twice in a file is written once.
    const next = sgmlBankStatement(
      [
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250115", TRNAMT: "-4.50", FITID: "F-2", NAME: "Corner Coffee" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250115", TRNAMT: "-4.50", FITID: "F-4", NAME: "Corner Coffee" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250117", TRNAMT: "-8.00", FITID: "F-5", NAME: "Bakery" }),
        sgmlTransaction({ TRNTYPE: "DEBIT", DTPOSTED: "20250117", TRNAMT: "-8.00", FITID: "F-5", NAME: "Bakery" }),
      ].join("\n"),
      { currency: "<CURDEF>USD" },
    );
    expect((await published(family, "OfxImport", next)).result).toEqual({ transactions: 2, skipped_duplicates: 2, claimed_duplicates: 0 });
    expect((await entriesOf(family)).map((entry) => entry.externalId)).toEqual(["F-1", "F-2", "F-4", "F-3", "F-5"]);

    // A CSV of what the OFX already wrote is skipped by day, amount and name, as before.
    const csv = await published(family, "TransactionImport", "date,amount,name\n2025-01-16,2500.00,Salary", { date_format: "%Y-%m-%d" });
    expect(csv.result).toEqual({ transactions: 0, skipped_duplicates: 1, claimed_duplicates: 1 });

    // Reverting an import removes its entries: their FITIDs can be imported again.
    await family.call("imports.revert", { id: first.id });
    expect((await published(family, "OfxImport", OFX)).result).toEqual({ transactions: 3, skipped_duplicates: 0, claimed_duplicates: 0 });
    expect((await entriesOf(family)).map((entry) => entry.externalId)).toEqual(["F-1", "F-2", "F-4", "F-3", "F-5"]);
  });

  it("counts an OFX statement's existing transactions without a FITID in the day/amount/name match (an earlier CSV of them)", async () => {
    const family = await newFamily();
    await published(family, "TransactionImport", "date,amount,name\n2025-01-15,-4.50,Corner Coffee", { date_format: "%Y-%m-%d" });
    expect((await published(family, "OfxImport", OFX)).result).toEqual({ transactions: 2, skipped_duplicates: 1, claimed_duplicates: 0 });
    expect((await entriesOf(family)).map((entry) => [entry.name, entry.externalId])).toEqual([
      ["Corner Coffee", "F-2"],
      ["Corner Coffee", null],
      ["Salary", "F-3"],
    ]);
  });

  it("writes a QIF file's transactions with their categories under their parents, tags and notes, and shows its rows (Sure: 'create_mappable! reuses existing parent category for hierarchical key')", async () => {
    const family = await newFamily();
    const home = await family.call("categories.create", { category: { name: "Home", color: "#aabbcc" } });
    const qif =
      "!Type:Bank\nD1/ 1'24\nT-150.00\nPHardware Store\nLHome:Home Improvement\n^\nD2/ 1'24\nT-50.00\nPModel Shop\nLHobbies:Model Trains\n^\nD2/ 2'24\nT-12.00\nPBookshop\nMGift\nLBooks/Birthday:Family\n^\n";
    const done = await published(family, "QifImport", qif);
    expect(done).toMatchObject({ type: "QifImport", result: { transactions: 3, skipped_duplicates: 0 } });
    expect(done.configuration).toMatchObject({ date_format: "%m/%d/%Y", number_format: "1,234.56" });
    const entries = await entriesOf(family);
    expect(
      entries.map((entry) => [
        entry.name,
        entry.amountCents,
        entry.category?.name,
        entry.category?.parent?.name ?? null,
        entry.notes,
        entry.tags.map((tag) => tag.tag.name).sort(),
        entry.externalId,
      ]),
    ).toEqual([
      ["Hardware Store", 15000n, "Home Improvement", "Home", null, [], null],
      ["Model Shop", 5000n, "Model Trains", "Hobbies", null, [], null],
      ["Bookshop", 1200n, "Books", null, "Gift", ["Birthday", "Family"], null],
    ]);
    const improvement = entries[0]?.category;
    expect(improvement).toMatchObject({ parentId: home.id, color: "#aabbcc" });

    const rows = ImportRowDiagnosticCollectionSchema.parse(await family.call("imports.rows", { id: done.id }));
    expect(rows.data.map((row) => [row.row_number, row.valid, row.fields.category, row.fields.date])).toEqual([
      [1, true, "Home:Home Improvement", "1/ 1'24"],
      [2, true, "Hobbies:Model Trains", "2/ 1'24"],
      [3, true, "Books/Birthday:Family", "2/ 2'24"],
    ]);
  });

  it("refuses without an account, a malformed file, too many transactions, and rows in error when asked to publish", async () => {
    const family = await newFamily();
    await expectAppError(family.call("imports.create", { type: "OfxImport", raw_file_content: OFX }), "validation_failed");
    await expectAppError(
      family.call("imports.create", { type: "OfxImport", account_id: family.accountId, raw_file_content: "not an ofx" }),
      "invalid_file_type",
    );
    await expectAppError(
      family.call("imports.create", { type: "QifImport", account_id: family.accountId, raw_file_content: SAMPLE_INVST_QIF }),
      "validation_failed",
    );
    const many = `!Type:Bank\n${"D1/1'24\nT-1.00\n^\n".repeat(10_001)}`;
    await expectAppError(family.call("imports.create", { type: "QifImport", account_id: family.accountId, raw_file_content: many }), "max_row_count_exceeded");

    const refused = await expectAppError(
      family.call("imports.create", {
        type: "QifImport",
        account_id: family.accountId,
        raw_file_content: "!Type:Bank\nD1/1'24\nT-1.00\n^\nT-2.00\n^\n",
        publish: true,
      }),
      "not_publishable",
    );
    const stored = ImportResponseSchema.parse(await family.call("imports.get", { id: refused.importId })).data;
    expect(stored).toMatchObject({ status: "pending", stats: { rows_count: 2, valid_rows_count: 1, invalid_rows_count: 1 } });
    const rows = ImportRowDiagnosticCollectionSchema.parse(await family.call("imports.rows", { id: stored.id }));
    expect(rows.data[1]).toMatchObject({ valid: false, errors: ["Date is required"] });

    const preflight = ImportPreflightSchema.parse((await family.call("imports.preflight", { type: "OfxImport", raw_file_content: OFX })).data);
    expect(preflight).toMatchObject({ type: "OfxImport", valid: true, stats: { rows_count: 3 } });
    expect(await finance.db.entry.count({ where: { accountId: family.accountId, kind: "transaction" } })).toBe(0);
  });
});
