import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { AppError } from "~/lib/base/errors";
import { appErrorResponse } from "~/lib/base/errors.server";
import { env } from "~/lib/base/env.server";
import { readJson } from "~/lib/request.server";

/**
 * The HTTP conventions of the guest chat platform under /api/chat/ (ADR 032 and ADR 033 for its limits): JSON with
 * `Cache-Control: no-store`; a failure answers `{detail}` (English, shown by the widget) with its status; a method
 * an endpoint does not serve is a 405.
 */
export interface ChatArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: Readonly<Record<string, string | undefined>>;
}

type Method = "GET" | "POST" | "PUT";
type Handler = (args: ChatArgs) => Promise<Response>;

const NO_STORE = { "Cache-Control": "no-store" };

export function chatJson(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** The answer to a path under /api/chat/ that names no endpoint. */
export function chatNotFound() {
  return chatJson({ detail: "Not found" }, 404);
}

/**
 * One endpoint's loader and action: the handler of the request's method, its AppError as `{detail}` (Retry-After
 * on a 429), any other method a 405.
 */
export function chatEndpoint(handlers: Partial<Record<Method, Handler>>) {
  return async (args: ChatArgs): Promise<Response> => {
    const handler = handlers[args.request.method.toUpperCase() as Method];
    if (!handler) return chatJson({ detail: "Method not allowed" }, 405);
    try {
      return await handler(args);
    } catch (error) {
      return appErrorResponse(error, (failure) => ({ detail: failure.message }), NO_STORE);
    }
  };
}

export async function readChatBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await readJson(request);
  } catch {
    throw new AppError("VALIDATION", "The body is not JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      "VALIDATION",
      `Invalid ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/** This deployment serves one chat account; any other is unknown. */
export function requireChatAccount(accountId: string | null | undefined): asserts accountId is string {
  if (accountId !== env().CHAT_ACCOUNT_ID) throw new AppError("NOT_FOUND", "Account not found");
}
