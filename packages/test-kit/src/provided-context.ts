// What the global setup hands every test file through vitest's provide/inject.
declare module "vitest" {
  export interface ProvidedContext {
    hearthPostgresAdminUrl: string;
    hearthKafkaBrokers: string | null;
    hearthKafkaSkipReason: string | null;
  }
}

export {};
