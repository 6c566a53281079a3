import { createScratchDatabase } from "./postgres-database";

// Before the test file is imported: its own empty database on the server (the app migrates it at first use). The
// run's global teardown drops it (tests/setup/postgres-global.ts); dropping here would cut the app's open pool.
const serverUrl = process.env.TEST_DATABASE_URL;
const prefix = process.env.TEST_DATABASE_PREFIX;
if (!serverUrl || !prefix)
  throw new Error("TEST_DATABASE_URL and TEST_DATABASE_PREFIX must be set (postgres-global.ts)");
const database = await createScratchDatabase(serverUrl, prefix);
process.env.DATABASE_URL = database.url;
