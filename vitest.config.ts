import { defineConfig } from "vitest/config";

const postgresUrl = process.env.TEST_DATABASE_URL;
// Not demo mode (DESIGN decision 15): no demo accounts, AUTH_SECRET required. Staff two-factor is optional here
// so that staff pages can be tested without enrolling; staff-two-factor.test.ts sets it to required.
const integrationEnv = {
  LOG_LEVEL: "silent",
  NODE_ENV: "test",
  SEED_DEMO: "",
  AUTH_SECRET: "integration-tests-secret-0123456789abcdef",
  AUTH_STAFF_2FA: "optional",
};

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Vitest's default on this 2-core machine is one worker (CPUs − 1): the integration files, which spend much of
    // their time waiting (PostgreSQL, spawned servers, the fakes, timeouts under test), then run one after another.
    // Each file has its own database, so two at a time share nothing.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // The unit tests run beside the typecheck, the build and lint on 2 cores (scripts/test-all.sh): a CPU-bound
          // check that takes 2 s alone took 5 s there, past Vitest's default limit. Nothing here waits on a timer.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          env: { ...integrationEnv, DATA_DIR: "memory://", DATABASE_URL: "" },
          globalSetup: ["tests/setup/pglite-template.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: "integration-postgres",
                include: ["tests/integration/**/*.test.ts"],
                env: integrationEnv,
                globalSetup: ["tests/setup/postgres-global.ts"],
                setupFiles: ["tests/setup/postgres-per-file.ts"],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
