import { createScratchDatabase } from "./postgres-database";

// Before the test file is imported: its own database on the server, a copy of the run's migrated template (the app
// still runs the migrations at first use, and finds nothing left to apply). The run's global teardown drops it
// (tests/setup/postgres-global.ts); dropping here would cut the app's open pool.
const serverUrl = process.env.TEST_DATABASE_URL;
const prefix = process.env.TEST_DATABASE_PREFIX;
const template = process.env.TEST_DATABASE_TEMPLATE;
if (!serverUrl || !prefix || !template)
  throw new Error(
    "TEST_DATABASE_URL, TEST_DATABASE_PREFIX and TEST_DATABASE_TEMPLATE must be set (postgres-global.ts)",
  );
const database = await createScratchDatabase(serverUrl, prefix, { template });
process.env.DATABASE_URL = database.url;
