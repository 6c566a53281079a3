import { RouterContextProvider } from "react-router";

/** The arguments React Router passes to a loader/action, for calling route modules directly in tests. */
export function routeArgs<P extends Record<string, string> = Record<string, string>>(
  request: Request,
  params?: P,
) {
  // `never` fits every route's generated Args type (they differ only in params).
  return {
    request,
    params: params ?? {},
    context: new RouterContextProvider(),
    url: new URL(request.url),
  } as never;
}

/** Unwraps `data()` results (DataWithResponseInit) and plain objects alike. */
export function unwrap<T>(result: unknown): { status: number; body: T } {
  if (
    result &&
    typeof result === "object" &&
    "type" in result &&
    (result as { type: string }).type === "DataWithResponseInit"
  ) {
    const value = result as unknown as { data: T; init: ResponseInit | null };
    return { status: value.init?.status ?? 200, body: value.data };
  }
  return { status: 200, body: result as T };
}
