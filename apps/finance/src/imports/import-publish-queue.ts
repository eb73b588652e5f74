import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceTx } from "../db";

/** Import publishes: one job per publish asked for (docs/background-jobs.md). */
export const IMPORT_PUBLISH_QUEUE = "finance.import-publish";

/** Queues the import's publish in the transaction that set it importing. */
export const queueImportPublish = (tx: FinanceTx, familyId: string, importId: string) =>
  enqueueJob(tx, { queue: IMPORT_PUBLISH_QUEUE, familyId, subjectId: importId, dedupeKey: importId });
