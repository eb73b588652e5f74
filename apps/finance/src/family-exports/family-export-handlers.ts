import { AppError, pageWindow, paginationOf } from "@hearth/contracts";
import type { InternalHandlers, RouteHandlers } from "@hearth/service-kit";
import type { FamilyExportRepository } from "./family-export-repository";
import { exportFilename, toFamilyExportResource } from "./family-export-resource";

type Handlers = Pick<RouteHandlers<"finance">, "familyExports.list" | "familyExports.get" | "familyExports.create" | "familyExports.delete">;

/** Sure's family exports controller: a family admin's exports, built in the background. */
export function createFamilyExportHandlers(exports: FamilyExportRepository, queued: () => void): Handlers {
  return {
    "familyExports.list": async ({ ctx, input }) => {
      const { rows, total } = await exports.list(ctx.actor.familyId, pageWindow(input));
      return { data: rows.map(toFamilyExportResource), meta: paginationOf(input, total) };
    },
    "familyExports.get": async ({ ctx, input }) => {
      const row = await exports.find(ctx.actor.familyId, input.id);
      if (!row) throw AppError.notFound("Family export");
      return { data: toFamilyExportResource(row) };
    },
    "familyExports.create": async ({ ctx }) => {
      // Any parameter (Sure's unsupported_create_params?) was refused by the route's strict schema.
      const row = await exports.create(ctx.actor.familyId);
      queued();
      return { data: toFamilyExportResource(row) };
    },
    "familyExports.delete": async ({ ctx, input }) => {
      const removed = await exports.remove(ctx.actor.familyId, input.id);
      if (removed === null) throw AppError.notFound("Family export");
      if (!removed) throw new AppError("conflict", { message: "The export is being built: delete it once it has completed or failed" });
    },
  };
}

/** The gateway's signed download streams a completed export slice by slice through this. */
export function createFamilyExportChunkHandler(exports: FamilyExportRepository): Pick<InternalHandlers<"finance">, "familyExports.chunk"> {
  return {
    "familyExports.chunk": async ({ input }) => {
      const chunk = await exports.chunk(input.familyId, input.exportId, input.seq);
      if (!chunk) throw AppError.notFound("Family export");
      return { data: Buffer.from(chunk.data).toString("base64"), last: chunk.last, filename: exportFilename(chunk.createdAt), byteSize: chunk.byteSize };
    },
  };
}
