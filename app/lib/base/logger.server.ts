import pino from "pino";
import { loggableError } from "~/domain/loggable-error";
import { env } from "./env.server";
import { currentRequestScope } from "./request-context.server";

let instance: pino.Logger | undefined;

function createLogger(): pino.Logger {
  return pino({
    level: env().LOG_LEVEL,
    base: { service: "clinica-portal" },
    // Every line logged while a request is handled names it as `reqId` (server.mjs opens the scope; issue 25);
    // `requestId` is already taken by the privacy and callback requests' own ids.
    // A failed query's bound values and PostgreSQL's row detail never reach a line (domain/loggable-error.ts).
    serializers: { err: loggableError },
    mixin() {
      const scope = currentRequestScope();
      return scope ? { reqId: scope.requestId } : {};
    },
    // A safety net only: personal data is not passed to the logger in the first place (tests/integration/
    // log-personal-data.test.ts checks the main flows).
    redact: [
      "req.headers.cookie",
      "req.headers.authorization",
      "password",
      "*.password",
      "phone",
      "*.phone",
      "email",
      "*.email",
      "rut",
      "*.rut",
    ],
  });
}

/**
 * Structured JSON logs. Created on first use, not on import, so the environment is read when the app (or a test)
 * is ready, not when a module happens to be loaded.
 */
export const logger: pino.Logger = new Proxy({} as pino.Logger, {
  get(_target, property) {
    instance ??= createLogger();
    const value = Reflect.get(instance, property, instance) as unknown;
    return typeof value === "function" ? value.bind(instance) : value;
  },
});
