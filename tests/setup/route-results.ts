/**
 * What a loader or action called directly produced, whether it returned or threw: a Response (redirects, JSON),
 * React Router's `data()` (DataWithResponseInit) or a plain object. Other errors are rethrown.
 */
export interface RouteResult<T = unknown> {
  status: number;
  /** The payload: `data()`'s value, a plain object, or a Response's parsed JSON/text body. */
  body: T;
  headers: Headers;
  /** The Location header of a redirect, else null. */
  location: string | null;
  /** True when the loader/action threw (redirects, guards). */
  thrown: boolean;
}

interface DataWithResponseInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

function isDataWithResponseInit(value: unknown): value is DataWithResponseInit {
  return (
    typeof value === "object" &&
    value !== null &&
    "type" in value &&
    (value as { type: unknown }).type === "DataWithResponseInit"
  );
}

async function describeValue<T>(value: unknown, wasThrown: boolean): Promise<RouteResult<T>> {
  if (value instanceof Response) {
    // An event stream never ends on its own: its status and headers are the result.
    if ((value.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      await value.body?.cancel();
      return {
        status: value.status,
        body: "" as T,
        headers: value.headers,
        location: null,
        thrown: wasThrown,
      };
    }
    const text = await value.text();
    let body: unknown = text;
    if ((value.headers.get("content-type") ?? "").includes("json")) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return {
      status: value.status,
      body: body as T,
      headers: value.headers,
      location: value.headers.get("location"),
      thrown: wasThrown,
    };
  }
  if (isDataWithResponseInit(value)) {
    const headers = new Headers(value.init?.headers);
    return {
      status: value.init?.status ?? 200,
      body: value.data as T,
      headers,
      location: headers.get("location"),
      thrown: wasThrown,
    };
  }
  return { status: 200, body: value as T, headers: new Headers(), location: null, thrown: wasThrown };
}

/** Runs a loader/action call and describes its outcome (returned or thrown). */
export async function settle<T = unknown>(run: () => unknown): Promise<RouteResult<T>> {
  let value: unknown;
  try {
    value = await run();
  } catch (error) {
    if (error instanceof Response || isDataWithResponseInit(error)) return describeValue<T>(error, true);
    throw error;
  }
  return describeValue<T>(value, false);
}

/** `name=value` pairs of every Set-Cookie header, joined as a `Cookie` header value. */
export function cookiePairs(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

/** What a loader/action call threw (a redirect Response, a `data(…, { status })` value, or any error); fails if it returned. */
export async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to throw");
    },
    (error: unknown) => error,
  );
}

/** The status of what a loader/action threw: a redirect Response or a `data(…, { status })` value. */
export function thrownStatus(error: unknown): number | undefined {
  if (error instanceof Response) return error.status;
  if (error && typeof error === "object" && "init" in error) {
    return (error as { init: ResponseInit | null }).init?.status;
  }
  return undefined;
}

/**
 * The status and Location of what `run` threw (a redirect Response, or a `data(…, { status })` value, whose
 * location is null); fails if it returned, rethrows any other error.
 */
export async function thrownResponse(
  run: () => Promise<unknown>,
): Promise<{ status: number; location: string | null }> {
  const error = await thrown(run());
  if (error instanceof Response) return { status: error.status, location: error.headers.get("location") };
  if (error && typeof error === "object" && "init" in error) {
    return { status: (error as { init: ResponseInit | null }).init?.status ?? 200, location: null };
  }
  throw error;
}
