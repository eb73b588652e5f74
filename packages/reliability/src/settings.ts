/** RELIABILITY_FULL=1 (`npm run test:reliability`): the durations; otherwise CI's short ones. */
export const FULL = process.env.RELIABILITY_FULL === "1";

/** Durations and sizes of every scenario, short (CI) or full. */
export const SCALE = FULL
  ? {
      kafkaDownSeconds: 30,
      loadAroundOutageSeconds: 15,
      auditBurst: 6_000,
      financeWrites: 3_000,
      postgresDownSeconds: 10,
      loadAroundRestartSeconds: 10,
      rollingWrites: 3_000,
    }
  : {
      kafkaDownSeconds: 5,
      loadAroundOutageSeconds: 4,
      auditBurst: 1_200,
      financeWrites: 400,
      postgresDownSeconds: 3,
      loadAroundRestartSeconds: 3,
      rollingWrites: 400,
    };

/** Concurrent clients of every load. */
export const CONCURRENCY = 16;
