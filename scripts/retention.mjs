// npm run retention [-- --dry-run] — the retention sweep once, now (ADR 038): deletes or anonymises what has passed
// its period in app/domain/retention.ts and prints the count per table; `--dry-run` prints what it would remove and
// changes nothing. The same database as the app: DATABASE_URL, or the embedded PGlite under DATA_DIR (./data by
// default; stop the server first, an embedded database belongs to one process). The app's code is reached as every
// command's is (scripts/app-command.mjs).
import { runAppCommand } from "./app-command.mjs";

await runAppCommand("/app/startup/retention-command.server.ts", "retentionCommand");
