// One lint setup for the whole monorepo: eslint's and typescript-eslint's recommended rules, plus
// the dependency boundaries of docs/architecture.md ("Boundaries"), checked on every file.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const APPS = ["gateway", "finance", "chat", "notifications", "audit"];
const OURS = ["contracts", "service-kit", "test-kit", "dev-tools", "demo-seed", "system-tests", ...APPS];

/** Bans every workspace package of ours except `allowed`, with the reason in the message. */
function onlyOurs(allowed, why) {
  return {
    group: OURS.filter((name) => !allowed.includes(name)).flatMap((name) => [`@hearth/${name}`, `@hearth/${name}/*`]),
    message: why,
  };
}

/** Relative imports that climb out of a package into another (a deep import past its exports). */
const INTO_OTHER_PACKAGES = {
  group: ["**/apps/**", "**/packages/**", ...APPS.map((app) => `**/${app}/src/**`)],
  message: "Import another package by its name and exports, never by a relative path.",
};

const APP_DEPENDENCIES = onlyOurs(["contracts", "service-kit"], "An app depends on the contracts and the service kit only: services meet in the contracts.");
const NO_TRANSPORT = {
  group: ["@trpc/*", "express", "express/*", "helmet", "pino-http"],
  message: "Domain code does not import the transport: routes come from the contracts, procedures from the service kit.",
};

const restrict = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

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

  // --- Boundaries: who may import whom -------------------------------------------------------
  {
    files: ["packages/contracts/**/*.ts"],
    rules: restrict(onlyOurs([], "The contracts import nothing of ours: everything else depends on them."), INTO_OTHER_PACKAGES, {
      group: ["@prisma/*", "@trpc/*", "express", "kafkajs", "pino"],
      message: "The contracts are shapes and rules only: no database, transport or logging.",
    }),
  },
  {
    files: ["packages/service-kit/**/*.ts"],
    rules: restrict(onlyOurs(["contracts"], "The service kit builds on the contracts only."), INTO_OTHER_PACKAGES),
  },
  {
    files: ["packages/dev-tools/**/*.ts", "packages/demo-seed/**/*.ts"],
    rules: restrict(
      onlyOurs(["contracts", "service-kit"], "Developer tools speak the contracts (and the kit's clients), never an app's internals."),
      INTO_OTHER_PACKAGES,
    ),
  },
  {
    files: ["packages/test-kit/**/*.ts"],
    rules: restrict(
      onlyOurs(["contracts", "service-kit", "dev-tools"], "The test kit serves every app: it imports none (the caller passes its factory)."),
      INTO_OTHER_PACKAGES,
    ),
  },
  {
    // Later blocks replace this rule for their files, so each lists every pattern that applies.
    files: ["apps/*/src/**/*.ts"],
    rules: restrict(APP_DEPENDENCIES, INTO_OTHER_PACKAGES),
  },
  {
    // Domain code never touches the transport: the service kit owns tRPC, the gateway's http/ owns express.
    files: ["apps/*/src/**/*.ts"],
    ignores: ["apps/gateway/src/http/**", "apps/gateway/src/gateway.ts"],
    rules: restrict(APP_DEPENDENCIES, INTO_OTHER_PACKAGES, NO_TRANSPORT),
  },
  {
    // Handlers hold the rules; every query lives in a repository or a named query module.
    files: ["apps/*/src/**/*-handlers.ts"],
    rules: restrict(APP_DEPENDENCIES, INTO_OTHER_PACKAGES, NO_TRANSPORT, {
      group: ["**/db", "**/generated/**", "@prisma/*", "pg"],
      message: "Handlers do not query: call a repository (*-repository.ts) or a query module (*-queries.ts).",
    }),
  },
  {
    files: ["apps/*/test/**/*.ts"],
    rules: restrict(
      onlyOurs(["contracts", "service-kit", "test-kit", "demo-seed"], "An app's tests use its own source, the contracts, the kits and the demo data."),
      INTO_OTHER_PACKAGES,
    ),
  },
  {
    files: ["scripts/**/*.ts", "bench/**/*.ts"],
    rules: restrict(INTO_OTHER_PACKAGES),
  },
);
