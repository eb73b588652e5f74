import { hearthVitestConfig } from "@hearth/test-kit/vitest-preset";

export default hearthVitestConfig({
  usesKafka: true,
  // They stop the shared broker (audit-over-kafka), run a three-broker cluster (kafka-cluster) or
  // SIGKILL the services of `npm start` (supervision).
  alone: ["test/audit-over-kafka.test.ts", "test/kafka-cluster.test.ts", "test/supervision.test.ts"],
});
