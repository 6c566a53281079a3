import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { createServer } from "node:net";
import path from "node:path";

/** The production server (server.mjs + build/), spawned with the given environment. Needs `react-router build`. */
export interface ProdServer {
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export const TEST_AUTH_SECRET = "prod-server-tests-secret-0123456789abcdef";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** server.mjs as a child process with the test defaults under `env`; its output is collected. */
function spawnServer(env: Record<string, string>, port: number) {
  let output = "";
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(port),
      // Outside demo mode the boot needs a shared secret; a test passes AUTH_SECRET: "" to see the refusal.
      AUTH_SECRET: TEST_AUTH_SECRET,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const listeners: Array<(text: string) => void> = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener(output);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    onOutput: (listener: (text: string) => void) => listeners.push(listener),
  };
}

export async function startProdServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ProdServer> {
  // A port the OS said was free may be taken before the server binds it (test files start servers side by side):
  // that server exits with EADDRINUSE, and it is started again on another port.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(env, await freePort(), timeoutMs);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(env: Record<string, string>, port: number, timeoutMs: number): Promise<ProdServer> {
  const { child, exited, output: currentOutput } = spawnServer(env, port);
  let gone = false;
  // Never leave a server behind if the test process ends first.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => {
    gone = true;
    process.off("exit", killOnExit);
  });

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) {
      const message = `server exited during start:\n${currentOutput()}`;
      throw currentOutput().includes("EADDRINUSE") ? new PortTakenError(message) : new Error(message);
    }
    // Only once this process says it listens: the port was free when asked for, but another test file's server may
    // take it meanwhile (this one then exits with EADDRINUSE), and that server's /healthz would answer for it.
    const listening = currentOutput().includes(`"msg":"listening on http://localhost:${port}"`);
    try {
      if (!listening) throw new Error("not listening yet");
      const response = await httpRequest(port, "/healthz");
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy within ${timeoutMs} ms:\n${currentOutput()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    port,
    child,
    output: currentOutput,
    exited,
    async stop() {
      if (gone) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every Set-Cookie header. */
  cookies: string[];
  body: string;
}

/**
 * One HTTP request with node:http (unlike fetch, it sends the Host header we ask for). Redirects are not followed.
 * `chunks` sends the body in pieces without Content-Length (chunked transfer encoding); `from` picks the loopback
 * address the request comes from.
 */
export function httpRequest(
  port: number,
  pathname: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    chunks?: string[];
    /** The client's own address (any 127.x.y.z works on Linux): a distinct client IP without any header. */
    from?: string;
  } = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["content-length"] ??= String(Buffer.byteLength(options.body));
    let answered = false;
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method: options.method ?? "GET",
        headers,
        agent: false,
        localAddress: options.from,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const setCookie = response.headers["set-cookie"];
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            cookies: setCookie ?? [],
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    // The server may answer (413) before reading the whole body and close the connection: that is fine.
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    request.on("close", () => {
      if (!answered) reject(new Error(`${pathname}: connection closed without a response`));
    });
    if (options.body !== undefined) request.write(options.body);
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end();
  });
}

/** The headers of an HTML form post from `origin` (`extra` may add or override any, e.g. host, cookie). */
export function formHeaders(origin: string, extra: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/x-www-form-urlencoded", origin, ...extra };
}

/** An HTML form post (urlencoded `fields`) to the production server, from `origin`; see httpRequest. */
export function httpForm(
  port: number,
  pathname: string,
  fields: Record<string, string>,
  options: { origin: string; headers?: Record<string, string>; from?: string },
): Promise<HttpResponse> {
  return httpRequest(port, pathname, {
    method: "POST",
    headers: formHeaders(options.origin, options.headers),
    body: new URLSearchParams(fields).toString(),
    from: options.from,
  });
}

/**
 * Spawns the production server for a boot that must refuse to start, and waits for it to exit. Same defaults as
 * startProdServer; killed (code null) if it is still running after `timeoutMs`.
 */
export async function runProdServerUntilExit(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; output: string }> {
  const server = spawnServer(env, Number(env.PORT ?? (await freePort())));
  // It booted although it should not have: stop it rather than leave it listening; the exit code tells.
  server.onOutput((text) => {
    if (text.includes("listening on")) server.child.kill("SIGKILL");
  });
  const killOnExit = () => server.child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const timer = setTimeout(killOnExit, timeoutMs);
  try {
    return { code: await server.exited, output: server.output() };
  } finally {
    clearTimeout(timer);
    process.off("exit", killOnExit);
  }
}
