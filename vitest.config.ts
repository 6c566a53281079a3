import { defineConfig } from "vitest/config";

const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "server/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          env: { DATA_DIR: "memory://", LOG_LEVEL: "silent", NODE_ENV: "test", DATABASE_URL: "" },
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
                env: { LOG_LEVEL: "silent", NODE_ENV: "test", AUTH_STAFF_2FA: "optional" },
                globalSetup: ["tests/setup/postgres-global.ts"],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
