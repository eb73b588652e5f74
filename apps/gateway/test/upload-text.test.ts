import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { declaredEncoding, uploadText } from "../src/http/upload-text";

const bytes = (text: string, encoding: string) => new Uint8Array(iconv.encode(text, encoding));

// The rows of Sure's test/fixtures/files/imports/windows1250.csv (import_encoding_test.rb), written here.
const POLISH = [
  "Date,Name,Amount,Category,Tags,Account,Notes",
  "2024-01-01,Sklep spożywczy,-50.00,Żywność,Zakupy,Konto główne,Zakupy w sklepie",
  "2024-01-02,Kawiarnia Café,-15.50,Jedzenie,Kawa|Śniadanie,Karta kredytowa,Poranna kawa",
  "2024-01-03,Stacja benzynowa,-120.00,Transport,Paliwo|Samochód,Konto główne,Tankowanie auta",
].join("\n");

const GERMAN = [
  "Buchungstag;Empfänger;Verwendungszweck;Betrag (€)",
  "28.03.2024;Bäckerei Müller;Brötchen & Kaffee;-4,50",
  "29.03.2024;Arbeitgeber GmbH;Gehalt März;2.500,00",
].join("\r\n");

/** Bank-export-shaped lines in the code page each language's exports use. */
const EXPORTS: [language: string, encoding: string, text: string][] = [
  ["French", "windows-1252", "Date;Libellé;Débit;Crédit\n05/01/2024;CB Boulangerie Pâtisserie;4,50;\n06/01/2024;Virement reçu Société Générale;;1200,00\n"],
  ["French, short", "windows-1252", "Date,Libellé,Montant\n2024-01-05,Café crème brûlée,-4.50\n2024-01-06,Señor Niño,-12.00\n"],
  ["Spanish", "windows-1252", "Fecha,Concepto,Importe\n05/01/2024,Compra en Carrefour Málaga,-45.30\n06/01/2024,Nómina Enero año 2024,2100.00\n"],
  [
    "German",
    "windows-1252",
    "Buchungstag;Empfänger;Betrag\n05.01.2024;Bäckerei Müller;-4,50\n06.01.2024;Überweisung Gehalt;2500,00\n07.01.2024;Straßenbahn München;-2,90\n",
  ],
  ["Italian", "windows-1252", "Data,Descrizione,Importo\n05/01/2024,Caffè Città,-1.20\n06/01/2024,Stipendio però,1500.00\n"],
  ["Portuguese", "windows-1252", "Data,Descrição,Valor\n05/01/2024,Padaria São João,-3.50\n06/01/2024,Salário Março,2000.00\n"],
  ["Swedish", "windows-1252", "Datum,Text,Belopp\n2024-01-05,Ica Nära Göteborg,-145.00\n2024-01-06,Lön Försäkringskassan,12000.00\n"],
  ["Danish", "windows-1252", "Dato,Tekst,Beløb\n05-01-2024,Føtex Århus,-145.00\n06-01-2024,Løn,12000.00\n"],
  ["English, pounds", "windows-1252", "Date,Description,Amount\n05/01/2024,Tesco £5 off,-45.00\n"],
  [
    "Polish",
    "windows-1250",
    "Data,Opis,Kwota\n2024-01-05,Sklep spożywczy Żabka,-12.50\n2024-01-06,Wynagrodzenie za styczeń,5000.00\n2024-01-07,Mąka i cukier,-8.20\n",
  ],
  ["Polish without ś (no 0x80-0x9f byte)", "windows-1250", "Data,Opis,Kwota\n2024-01-05,Sklep spożywczy,-12.50\n2024-01-07,Mąka i cukier Wrocław,-8.20\n"],
  ["Czech", "windows-1250", "Datum,Popis,Částka\n05.01.2024,Příjem mzdy Česká spořitelna,25000.00\n06.01.2024,Nákup Albert Brno,-345.00\n"],
  ["Hungarian", "windows-1250", "Dátum,Leírás,Összeg\n2024.01.05,Fizetés,450000\n2024.01.06,Vásárlás Tesco Győr,-12500\n"],
  ["Croatian", "windows-1250", "Datum,Opis,Iznos\n05.01.2024,Plaća Zagreb,8000.00\n06.01.2024,Kupnja Konzum Čakovec,-45.00\n"],
  ["Russian", "windows-1251", "Дата,Описание,Сумма\n05.01.2024,Пятёрочка Москва,-540.00\n06.01.2024,Зарплата,85000.00\n"],
  ["Greek", "windows-1253", "Ημερομηνία,Περιγραφή,Ποσό\n05/01/2024,Σούπερ μάρκετ,-45.00\n"],
  ["Japanese", "shift_jis", "日付,摘要,金額\n2024/01/05,セブンイレブン 渋谷店,-540\n2024/01/06,給与 株式会社テスト,250000\n"],
];

describe("uploadText", () => {
  it.each(EXPORTS)("finds the code page of a %s export (%s)", async (_language, encoding, text) => {
    expect(await uploadText(bytes(text, encoding))).toEqual({ text, encoding, source: "detection" });
  });

  it("reads some Turkish Windows-1254 as 1252 unless asked (a known limit: its six letters apart from 1252 are letters there too), and exactly when asked", async () => {
    const turkish = "Tarih,Açıklama,Tutar\n05.01.2024,Maaş ödemesi,25000.00\n06.01.2024,Migros alışveriş,-450.00\n";
    expect((await uploadText(bytes(turkish, "windows-1254"))).encoding).toBe("windows-1252");
    expect((await uploadText(bytes(turkish, "windows-1254"), "windows-1254")).text).toBe(turkish);
  });

  it("reads Windows-1250 as Sure's fixture expects: spożywczy and Café", async () => {
    const read = await uploadText(bytes(POLISH, "windows-1250"));
    expect(read).toMatchObject({ encoding: "windows-1250", source: "detection" });
    expect(read.text).toBe(POLISH);
  });

  it("reads a German bank's Windows-1252 export, euro sign included", async () => {
    const read = await uploadText(bytes(GERMAN, "windows-1252"));
    expect(read).toMatchObject({ encoding: "windows-1252", source: "detection" });
    expect(read.text).toBe(GERMAN);
  });

  it("leaves UTF-8 as it is, a BOM taken off, and UTF-16 with or without its mark", async () => {
    expect(await uploadText(bytes(GERMAN, "utf-8"))).toEqual({ text: GERMAN, encoding: "utf-8", source: "content" });
    expect(await uploadText(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(GERMAN, "utf-8")]))).toEqual({ text: GERMAN, encoding: "utf-8", source: "bom" });
    expect(await uploadText(new Uint8Array([0xff, 0xfe, ...bytes(GERMAN, "utf-16le")]))).toEqual({ text: GERMAN, encoding: "utf-16le", source: "bom" });
    expect(await uploadText(bytes(GERMAN, "utf-16le"))).toEqual({ text: GERMAN, encoding: "utf-16le", source: "content" });
    expect(await uploadText(bytes(GERMAN, "utf-16be"))).toEqual({ text: GERMAN, encoding: "utf-16be", source: "content" });
  });

  it("takes the encoding asked for over detection, and refuses bytes that are not in it", async () => {
    const euro = "Date,Name,Amount\n2024-01-01,Caf€ Ñ,-1.00";
    expect(await uploadText(bytes(euro, "iso-8859-15"), "iso-8859-15")).toEqual({ text: euro, encoding: "iso-8859-15", source: "parameter" });
    await expect(uploadText(bytes(GERMAN, "windows-1252"), "utf-8")).rejects.toThrow("The file is not UTF-8 text");
  });

  it("takes an OFX header's or an XML declaration's charset when the bytes are not UTF-8", async () => {
    const sgml = "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nENCODING:USASCII\r\nCHARSET:1252\r\n\r\n<OFX><NAME>Café Zürich</NAME></OFX>";
    expect(await uploadText(bytes(sgml, "windows-1252"))).toEqual({ text: sgml, encoding: "windows-1252", source: "declaration" });
    const xml = '<?xml version="1.0" encoding="ISO-8859-2"?><OFX><NAME>Żabka</NAME></OFX>';
    expect(await uploadText(bytes(xml, "iso-8859-2"))).toEqual({ text: xml, encoding: "iso-8859-2", source: "declaration" });
    // Banks declare 1252 over UTF-8 bytes: valid UTF-8 is taken as UTF-8.
    expect(await uploadText(bytes(sgml, "utf-8"))).toMatchObject({ text: sgml, encoding: "utf-8", source: "content" });
  });

  it("names the charset an OFX header or XML declaration gives, and nothing for NONE or an unknown one", async () => {
    expect(declaredEncoding("OFXHEADER:100\nENCODING:UTF-8\nCHARSET:NONE\n")).toBe("utf-8");
    expect(declaredEncoding("OFXHEADER:100\nENCODING:USASCII\nCHARSET:1250\n")).toBe("windows-1250");
    expect(declaredEncoding("OFXHEADER:100\nENCODING:USASCII\nCHARSET:ISO-8859-1\n")).toBe("windows-1252");
    expect(declaredEncoding("OFXHEADER:100\nENCODING:USASCII\nCHARSET:NONE\n")).toBeUndefined();
    expect(declaredEncoding("OFXHEADER:100\nCHARSET:EBCDIC-FOO\n")).toBeUndefined();
    expect(declaredEncoding("Date,Amount\nCHARSET:1252\n")).toBeUndefined();
  });

  it("refuses binary data (a spreadsheet sent as .csv)", async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0xc3, 0x9a]);
    await expect(uploadText(zip)).rejects.toThrow("The file is not text: it holds binary data");
  });

  it("samples only the lines with non-ASCII bytes, and gives the event loop turns: a 10 MB file without newlines", async () => {
    const big = new Uint8Array(10 * 1024 * 1024).fill(0x61);
    for (let i = 100; i < big.length; i += 4096) big[i] = 0xe9; // é in windows-1252, alone: never valid UTF-8
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const read = await uploadText(big);
    clearInterval(counting);
    expect(read.encoding).toMatch(/^windows-125[02]$/);
    expect(read.text).toHaveLength(big.length);
    // Other requests had the event loop between the slices of the scan and of the decoding.
    expect(turns).toBeGreaterThanOrEqual(10);
  });
});
