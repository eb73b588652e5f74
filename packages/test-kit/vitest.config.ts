import { hearthVitestConfig } from "./src/vitest-preset";

export default hearthVitestConfig();
