import type { ServerResponse } from "node:http";
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { WireAppError } from "@hearth/contracts";

/**
 * Answers as tRPC's handler would have for an error our error formatter shaped (trpc/server.ts),
 * for the requests answered before tRPC sees them (a large body refused unread or cut off): the
 * service clients read them as any other failed call.
 */
export function answerTrpcError(res: ServerResponse, trpcCode: TRPC_ERROR_CODE_KEY, httpStatus: number, appError: WireAppError): void {
  const body = JSON.stringify({
    error: { message: appError.message, code: TRPC_ERROR_CODES_BY_KEY[trpcCode], data: { code: trpcCode, httpStatus, appError } },
  });
  res.writeHead(httpStatus, { "content-type": "application/json" }).end(body);
}
