import { z } from "zod";
import { IntegrationError } from "../http.server";

/**
 * An OpenAI-compatible chat-completions client (ADR 033): `POST {baseUrl}/chat/completions` with
 * `stream: true` and `max_tokens`, read as server-sent `data:` chunks until `[DONE]`. Every call has a timeout, and
 * reading stops at `maxChars` (a provider that ignores `max_tokens` cannot stream more than that); failures are
 * IntegrationError { system: "llm" } and never carry the key.
 */
export interface LlmMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmClientOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  /** The output cap asked of the model (`max_tokens`). */
  maxTokens: number;
  /** The most text read from a reply; the rest is not read. */
  maxChars: number;
  fetch?: typeof fetch;
}

const chunkSchema = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).optional() })).default([]),
});

const fail = (message: string, status: number | null, code?: string, cause?: unknown) =>
  new IntegrationError({ system: "llm", status, body: null, code, message, cause });

export interface LlmClient {
  /** Streams the reply; `onToken` gets each piece as it arrives; resolves with the text (at most `maxChars`). */
  streamChat(messages: LlmMessage[], onToken?: (token: string) => void): Promise<string>;
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  return {
    async streamChat(messages, onToken) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      try {
        const response = await doFetch(`${base}/chat/completions`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${options.apiKey}`,
            "Content-Type": "application/json",
            Accept: "text/event-stream",
          },
          body: JSON.stringify({
            model: options.model,
            messages,
            stream: true,
            temperature: 0.2,
            max_tokens: options.maxTokens,
          }),
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw fail(`LLM answered ${response.status}`, response.status);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        let text = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) throw fail("LLM stream ended before [DONE]", response.status, "INCOMPLETE");
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, cut).trim();
            buffer = buffer.slice(cut + 1);
            if (!line.startsWith("data:")) continue;
            const data = line.slice(5).trim();
            if (data === "[DONE]") return text;
            const parsed = chunkSchema.safeParse(JSON.parse(data));
            if (!parsed.success) throw fail("LLM sent an invalid chunk", response.status, "INVALID_RESPONSE");
            const token = (parsed.data.choices[0]?.delta?.content ?? "").slice(
              0,
              options.maxChars - text.length,
            );
            if (token) {
              text += token;
              onToken?.(token);
            }
            if (text.length >= options.maxChars) {
              // Stop the download, not only the relay: the rest is never read.
              await reader.cancel().catch(() => {});
              return text;
            }
          }
        }
      } catch (error) {
        if (error instanceof IntegrationError) throw error;
        if (controller.signal.aborted)
          throw fail(`LLM timeout after ${options.timeoutMs}ms`, null, "TIMEOUT", error);
        throw fail("LLM request failed", null, "NETWORK", error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
