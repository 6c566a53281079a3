import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake OpenAI-compatible server on 127.0.0.1 for tests and offline dev: `POST /v1/chat/completions` with a Bearer
 * key, answering `stream: true` as `data:` chunks then `data: [DONE]` (and `stream: false` as one completion).
 * `failMidStream` cuts the connection after the first chunks; `tokenDelayMs` paces the chunks; `status` forces an
 * error answer.
 */
export interface LlmFake {
  url: string;
  requests: Array<{
    messages: Array<{ role: string; content: string }>;
    stream: boolean;
    /** The output cap the client asked for, if any. */
    maxTokens?: number;
  }>;
  reply: string;
  failMidStream: boolean;
  /** Pause between streamed chunks (ms). */
  tokenDelayMs: number;
  status: number;
  close(): Promise<void>;
}

export async function startLlmFake(options: { apiKey: string; reply?: string }): Promise<LlmFake> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
        response
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "Not found" } }));
        return;
      }
      if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
        response.writeHead(401, { "content-type": "application/json" }).end(
          JSON.stringify({
            error: {
              message: "Incorrect API key provided",
              type: "invalid_request_error",
              code: "invalid_api_key",
            },
          }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        model: string;
        stream?: boolean;
        max_tokens?: number;
        messages: Array<{ role: string; content: string }>;
      };
      fake.requests.push({
        messages: body.messages,
        stream: Boolean(body.stream),
        maxTokens: body.max_tokens,
      });
      if (fake.status !== 200) {
        response
          .writeHead(fake.status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "upstream failure", type: "server_error" } }));
        return;
      }
      const id = `chatcmpl-${Date.now()}`;
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream) {
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id,
            object: "chat.completion",
            created,
            model: body.model,
            choices: [
              { index: 0, message: { role: "assistant", content: fake.reply }, finish_reason: "stop" },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const tokens = fake.reply.match(/\S+\s*/g) ?? [];
      const chunk = (delta: Record<string, string>, finish: string | null) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.write(chunk({ role: "assistant", content: "" }, null));
      // One chunk per word, `tokenDelayMs` apart (0: all at once), as a model streams them.
      const writeFrom = (start: number) => {
        for (let index = start; ; index += 1) {
          if (response.destroyed) return;
          if (index === tokens.length) {
            response.write(chunk({}, "stop"));
            response.end("data: [DONE]\n\n");
            return;
          }
          if (fake.failMidStream && index === 2) {
            response.destroy();
            return;
          }
          response.write(chunk({ content: tokens[index]! }, null));
          if (fake.tokenDelayMs > 0) {
            setTimeout(() => writeFrom(index + 1), fake.tokenDelayMs);
            return;
          }
        }
      };
      writeFrom(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake: LlmFake = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: [],
    reply: options.reply ?? "Hola, soy el Dentista Virtual IA de la clínica.",
    failMidStream: false,
    tokenDelayMs: 0,
    status: 200,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
