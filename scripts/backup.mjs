// npm run backup — a consistent backup of the app's database into BACKUP_DIR (ADR 046): pg_dump -Fc on PostgreSQL
// (DATABASE_URL); the embedded PGlite's data directory as a .tar.gz otherwise, taken by the running server (asked on
// loopback with the token in DATA_DIR/servidor.json) or, when no server runs, by this process.
import { runAppCommand } from "./app-command.mjs";

await runAppCommand("/app/startup/backup-command.server.ts", "backupCommand");
