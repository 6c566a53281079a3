import pino from "pino";
import { env } from "./env.server";

export const logger = pino({
  level: env().LOG_LEVEL,
  base: { service: "clinica-portal" },
  redact: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.phone", "*.email"],
});
