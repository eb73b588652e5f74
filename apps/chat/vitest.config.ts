import { hearthVitestConfig } from "@hearth/test-kit/vitest-preset";

export default hearthVitestConfig({
  // They time the code in milliseconds (a linear-time name match under 100 ms, a tool round trip
  // under 20 ms, a reply's p95 under 50 ms): beside other files on two cores they measure the load.
  alone: ["test/builtin-intent.test.ts", "test/builtin-replies.test.ts", "test/openai-provider.test.ts"],
});
