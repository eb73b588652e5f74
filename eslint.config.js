// One lint setup for the whole monorepo: eslint's and typescript-eslint's recommended rules.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/src/generated/**", "**/dist/**", "**/.turbo/**", ".tools/**", "infra/kafka/.work/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always"],
      "no-console": "off",
    },
  },
  {
    // Test helpers read loosely typed JSON bodies of HTTP answers.
    files: ["**/test/**/*.ts", "packages/system-tests/src/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
