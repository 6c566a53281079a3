// npm run restore -- FILE [--force] — restores a backup made by `npm run backup` (ADR 046) into an empty database
// (DATABASE_URL) or an empty embedded data directory (DATA_DIR/pglite); a non-empty one only with --force.
import { runAppCommand } from "./app-command.mjs";

await runAppCommand("/app/startup/backup-command.server.ts", "restoreCommand");
