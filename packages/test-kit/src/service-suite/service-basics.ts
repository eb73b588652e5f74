import type { Server } from "node:http";
import type { ServiceUnderTestOptions } from "../service-harness";
import type { ProcedureCase } from "./procedure-case";

/** What the shared suites need of a database client: they close the ones they open. */
export interface Disconnectable {
  $disconnect(): Promise<void>;
}

/** What the shared suites need of the service's parts: a server to listen with. */
export interface ServedParts {
  server: Server;
}

/**
 * One service as the shared health and internal-auth suites run it. The factory comes from
 * the caller (the kit imports no app): the same options `startServiceUnderTest` takes.
 */
export interface ServiceBasics<Db extends Disconnectable, Parts extends ServedParts> extends ServiceUnderTestOptions<Db, Parts> {
  /** Procedures of the service each check calls: every check runs for each of them. */
  procedures: readonly [ProcedureCase, ...ProcedureCase[]];
  /** The rows those procedures store: a refused call must store none. */
  countRows: (db: Db) => Promise<number>;
}
