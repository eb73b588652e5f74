// One lint setup for the whole monorepo: eslint's and typescript-eslint's recommended rules, plus
// the dependency boundaries of docs/architecture.md ("Boundaries"), checked on every file.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const APPS = ["gateway", "finance", "chat", "notifications", "audit"];
const OURS = ["contracts", "service-kit", "test-kit", "dev-tools", "demo-seed", "system-tests", "reliability", ...APPS];

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

/** A Prisma model's calls (`db.account.findMany`): named so the query-placement rule can see them. */
const PRISMA_MODEL_CALLS =
  "(findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany|count|aggregate|groupBy)";

/** What the apps call a Prisma client or transaction (`db`, `tx`, `scope.db`). */
const PRISMA_CLIENTS = "/^(db|tx|prisma)$/";

const RAW_SQL_CALLS = "/^\\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe)$/";
const RUNS_RAW_SQL = {
  // db.$queryRaw, db["$queryRaw"], and const { $queryRaw } = db.
  selector: `:matches(MemberExpression[property.name=${RAW_SQL_CALLS}], MemberExpression[property.value=${RAW_SQL_CALLS}], ObjectPattern > Property[key.name=${RAW_SQL_CALLS}])`,
  message: "Raw SQL runs in a repository (*-repository.ts) or a query module (*-queries.ts).",
};
const CALLS_PRISMA_MODEL = {
  selector: `CallExpression > MemberExpression.callee[property.name=/^${PRISMA_MODEL_CALLS}$/] > MemberExpression.object > :matches(Identifier.object[name=${PRISMA_CLIENTS}], MemberExpression.object[property.name=${PRISMA_CLIENTS}])`,
  message: "Prisma model calls live in a repository (*-repository.ts) or a query module (*-queries.ts).",
};
const BUILDS_SQL = {
  // Prisma.sql, and Prisma imported under another name (which would hide it from the first).
  selector: "MemberExpression[object.name='Prisma'][property.name=/^(sql|raw|join|empty)$/], ImportSpecifier[imported.name='Prisma'][local.name!='Prisma']",
  message: "SQL is built in a query module (*-queries.ts) or a SQL engine (*-sql.ts).",
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
    // The reliability suite drives npm start's real processes from outside, as an operator would.
    files: ["packages/reliability/**/*.ts"],
    rules: restrict(
      onlyOurs(["contracts", "test-kit"], "The reliability suite runs the system from outside: the test kit and the contracts only."),
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
    // Handlers do not query: every query lives in a repository or a named query module.
    files: ["apps/*/src/**/*-handlers.ts"],
    rules: restrict(APP_DEPENDENCIES, INTO_OTHER_PACKAGES, NO_TRANSPORT, {
      group: ["**/db", "**/generated/**", "@prisma/*", "pg"],
      message: "Handlers do not query: call a repository (*-repository.ts) or a query module (*-queries.ts).",
    }),
  },
  {
    // Queries live in repositories (*-repository.ts) and query modules (*-queries.ts); engines that
    // build SQL text without a client may be *-sql.ts. Everywhere else calls those.
    files: ["apps/*/src/**/*.ts"],
    ignores: ["apps/*/src/**/*-repository.ts", "apps/*/src/**/*-queries.ts", "apps/*/src/**/*-sql.ts", "apps/*/src/generated/**"],
    rules: { "no-restricted-syntax": ["error", RUNS_RAW_SQL, CALLS_PRISMA_MODEL, BUILDS_SQL] },
  },
  {
    files: ["apps/*/src/**/*-sql.ts"],
    rules: { "no-restricted-syntax": ["error", RUNS_RAW_SQL, CALLS_PRISMA_MODEL] },
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
