import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ProviderConnectionCollectionSchema,
  ProviderConnectionResponseSchema,
  SyncCollectionSchema,
  SyncResponseSchema,
  type ProviderConnection,
} from "@hearth/contracts";
import { startServiceUnderTest } from "@hearth/test-kit";
import { createFinanceService } from "../src/app";
import { eventually, expectAppError, financeAs, financeUnderTest, newActor, type RunningFinance } from "./support";

// A provider connection's runs are syncs like any other, as in Sure: Sync.for_family takes in the
// family's provider items (app/models/sync.rb 63-74), and test/controllers/api/v1/syncs_controller_test.rb
// lists, shows and finds the latest of them, another family's answering 404.

let finance: RunningFinance;
let call: ReturnType<typeof financeAs>;
let other: ReturnType<typeof financeAs>;
/** A bridge address nothing listens on: each sync fails at once with a stable category. */
let unreachable = "";

beforeAll(async () => {
  finance = await startServiceUnderTest({
    ...financeUnderTest,
    create: (deps) => createFinanceService({ ...deps, providerConnections: { allowPrivateHosts: true }, jobs: { pollMs: 50, heartbeatMs: 100 } }),
  });
  call = financeAs(finance, newActor());
  other = financeAs(finance, newActor());
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  unreachable = `http://user:secret@127.0.0.1:${(closed.address() as AddressInfo).port}/simplefin`;
  await new Promise((resolve) => closed.close(resolve));
}, 60_000);
afterAll(() => finance?.stop());

/** The connection once its latest run ended, that run being `previous`'s successor when given. */
async function failedRun(id: string, previous?: string): Promise<ProviderConnection> {
  return eventually(async () => {
    const connection = ProviderConnectionCollectionSchema.parse(await call("providerConnections.list")).data.find((each) => each.id === id);
    expect(connection?.sync.latest?.status).toBe("failed");
    expect(connection?.sync.latest?.id).not.toBe(previous);
    return connection!;
  });
}

describe("syncs of provider connections", () => {
  let connection: ProviderConnection;
  let firstRun = "";

  it("the run a connection reports is shown by /syncs/{id}: Sure's SimplefinItem syncable, its status and sanitized error", async () => {
    const created = ProviderConnectionResponseSchema.parse(
      await call("providerConnections.create", { provider_connection: { provider: "simplefin", name: "My bank", access_url: unreachable } }),
    ).data;
    connection = await failedRun(created.id);
    firstRun = connection.sync.latest!.id;

    const shown = SyncResponseSchema.parse(await call("syncs.get", { id: firstRun })).data;
    expect(shown).toEqual({
      id: firstRun,
      status: "failed",
      in_progress: false,
      terminal: true,
      syncable: { type: "SimplefinItem", id: connection.id, name: "My bank" },
      parent_id: null,
      children_count: 0,
      window_start_date: null,
      window_end_date: null,
      pending_at: connection.sync.latest!.created_at,
      syncing_at: connection.sync.latest!.syncing_at,
      completed_at: null,
      failed_at: connection.sync.latest!.failed_at,
      error: { message: "The bridge could not be reached" },
      created_at: connection.sync.latest!.created_at,
      updated_at: expect.any(String),
    });
    expect(shown?.failed_at).not.toBeNull();
  });

  it("are listed with the family's own syncs, newest first and paged, and the latest may be one", async () => {
    const familySync = (await call("syncs.create")).id as string;
    await call("providerConnections.sync", { id: connection.id });
    const secondRun = (await failedRun(connection.id, firstRun)).sync.latest!.id;

    const listed = SyncCollectionSchema.parse(await call("syncs.list", { per_page: 100 }));
    expect(listed.data.map((sync) => sync.id)).toEqual([secondRun, familySync, firstRun]);
    expect(listed.data.map((sync) => sync.syncable.type)).toEqual(["SimplefinItem", "Family", "SimplefinItem"]);
    expect(listed.meta).toMatchObject({ total_count: 3, total_pages: 1 });
    const pages = await Promise.all([1, 2, 3].map((page) => call("syncs.list", { page, per_page: 1 })));
    expect(pages.map((page) => SyncCollectionSchema.parse(page).data.map((sync) => sync.id))).toEqual([[secondRun], [familySync], [firstRun]]);
    expect(SyncCollectionSchema.parse(pages[0]).meta).toMatchObject({ total_count: 3, total_pages: 3 });

    expect(SyncResponseSchema.parse(await call("syncs.latest")).data?.id).toBe(secondRun);
  });

  it("another family's run is 404, in no list of theirs and not their latest", async () => {
    await expectAppError(other("syncs.get", { id: firstRun }), "record_not_found");
    expect(SyncCollectionSchema.parse(await other("syncs.list")).meta.total_count).toBe(0);
    expect(SyncResponseSchema.parse(await other("syncs.latest")).data).toBeNull();
  });

  it("go with their connection (Sure's Syncable: has_many :syncs, dependent: :destroy)", async () => {
    await call("providerConnections.delete", { id: connection.id });
    await expectAppError(call("syncs.get", { id: firstRun }), "record_not_found");
    expect(SyncCollectionSchema.parse(await call("syncs.list")).data.map((sync) => sync.syncable.type)).toEqual(["Family"]);
  });
});
