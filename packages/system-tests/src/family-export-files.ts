import yauzl from "yauzl";
import { FamilyExportResponseSchema } from "@hearth/contracts";
import type { ApiClient } from "./api-client";
import { eventually } from "./eventually";
import type { TestUser } from "./users";

/** The file names and texts of a ZIP. */
export async function unzipTexts(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, file) => (err ? reject(err) : resolve(file))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const parts: Buffer[] = [];
        stream.on("data", (part: Buffer) => parts.push(part));
        stream.on("end", () => {
          files.set(entry.fileName, Buffer.concat(parts).toString("utf8"));
          zip.readEntry();
        });
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return files;
}

/** The user's family exported as a Sure client does it (queue, poll, download by the signed link): its files by name. */
export async function exportedFiles(baseUrl: string, api: ApiClient, user: TestUser): Promise<Map<string, string>> {
  const created = await api.post("/api/v1/family_exports", undefined, { apiKey: user.writeKey });
  if (created.status !== 202) throw new Error(`family export: ${created.status} ${JSON.stringify(created.body)}`);
  const { id } = FamilyExportResponseSchema.parse(created.body).data;
  await eventually(async () => {
    const shown = FamilyExportResponseSchema.parse((await api.get(`/api/v1/family_exports/${id}`, { apiKey: user.readKey })).body).data;
    if (shown.status !== "completed") throw new Error(`export ${shown.status}`);
  });
  const link = await fetch(`${baseUrl}/api/v1/family_exports/${id}/download`, { headers: { "x-api-key": user.readKey }, redirect: "manual" });
  const file = await fetch(`${baseUrl}${link.headers.get("location") ?? ""}`);
  if (file.status !== 200) throw new Error(`export download: ${file.status}`);
  return unzipTexts(Buffer.from(await file.arrayBuffer()));
}

export type ExportRecord = { type: string; data: Record<string, unknown> };

/** The records of an all.ndjson of one type. */
export const ndjsonRecords = (ndjson: string, type: string): ExportRecord[] =>
  ndjson
    .split("\n")
    .map((line) => JSON.parse(line) as ExportRecord)
    .filter((record) => record.type === type);
