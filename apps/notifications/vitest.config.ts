import { hearthVitestConfig } from "@hearth/test-kit/vitest-preset";

export default hearthVitestConfig();
