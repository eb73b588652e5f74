import { hearthVitestConfig } from "@hearth/test-kit/vitest-preset";

export default hearthVitestConfig({
  usesKafka: true,
  // It runs a three-broker cluster beside the shared broker. (audit-over-kafka stops a broker of
  // its own, and supervision SIGKILLs the services of an `npm start` of its own: both run side by side.)
  alone: ["test/kafka-cluster.test.ts"],
});
