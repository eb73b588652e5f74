import { AppError } from "@hearth/contracts";
import type { RouteHandlers } from "@hearth/service-kit";
import { SURE_NDJSON_LIMITS } from "../ndjson/limits";
import type { ImportSessionRepository } from "./import-session-repository";
import { toImportSessionResource } from "./import-session-resource";
import { checkChunk } from "./session-chunk-content";

type Handlers = Pick<RouteHandlers<"finance">, "importSessions.create" | "importSessions.get" | "importSessions.addChunk" | "importSessions.publish">;

/** Sure's import sessions: a SureImport sent in ordered, resumable chunks and published as one import. */
export function createImportSessionHandlers(sessions: ImportSessionRepository, queued: () => void): Handlers {
  async function view(familyId: string, id: string) {
    const session = await sessions.find(familyId, id);
    if (!session) throw AppError.notFound("Import session");
    return { data: toImportSessionResource(session, session.importId ? await sessions.importOf(session.importId) : null) };
  }

  return {
    "importSessions.create": async ({ ctx, input }) => {
      const clientSessionId = input.client_session_id?.trim() || null;
      const session = await sessions.createOrFind(ctx.actor.familyId, clientSessionId, input.expected_chunks ?? null);
      return view(ctx.actor.familyId, session.id);
    },
    "importSessions.get": async ({ ctx, input }) => view(ctx.actor.familyId, input.id),
    "importSessions.addChunk": async ({ ctx, input }) => {
      const chunk = await checkChunk(input.raw_file_content, input.filename !== undefined);
      await sessions.addChunk(ctx.actor.familyId, input.id, input.sequence, input.client_chunk_id?.trim() || null, chunk);
      return view(ctx.actor.familyId, input.id);
    },
    "importSessions.publish": async ({ ctx, input }) => {
      const { queued: started } = await sessions.publish(ctx.actor.familyId, input.id, SURE_NDJSON_LIMITS.maxRows);
      if (started) queued();
      return view(ctx.actor.familyId, input.id);
    },
  };
}
