/*
 * What of an error may reach a log line (issue 25: no personal data in logs). A failed query's error carries the
 * query's values — Drizzle's message ends in `params: <every bound value>` and keeps them in `params`; PostgreSQL's
 * `detail` spells out the row (`Key (phone)=(+569…) already exists.`) — so those are dropped, and the stack's first
 * line, which repeats the message, is rewritten with the cleaned one. Codes, constraint and table names stay: they
 * are what an operator needs.
 */

export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  cause?: LoggedError | string;
}

/** Drizzle's `Failed query: …\nparams: …`: everything from the params line on. */
const PARAMS = /\nparams: [\s\S]*$/;

function cleanMessage(message: string): string {
  return message.replace(PARAMS, "\nparams: [omitidos]");
}

const KEPT = ["code", "constraint", "table", "column"] as const;

export function loggableError(error: unknown, depth = 0): LoggedError | string {
  // The app's own failure texts (a provider's status, an outbox error message) are logged as strings.
  if (typeof error === "string") return cleanMessage(error);
  if (!(error instanceof Error)) {
    // A thrown non-error object: its type only (it could hold anything a user typed).
    return error === null ? "null" : typeof error;
  }
  const message = cleanMessage(error.message);
  const logged: LoggedError = { type: error.name, message };
  if (error.stack) {
    const head = `${error.name}: ${error.message}`;
    logged.stack = error.stack.startsWith(head)
      ? `${error.name}: ${message}${error.stack.slice(head.length)}`
      : cleanMessage(error.stack);
  }
  const fields = error as unknown as Record<string, unknown>;
  for (const key of KEPT) {
    const value = fields[key];
    if (typeof value === "string" || typeof value === "number") logged[key] = String(value);
  }
  if (error.cause !== undefined && depth < 3) logged.cause = loggableError(error.cause, depth + 1);
  return logged;
}
