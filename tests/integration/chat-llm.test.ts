import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { createLlmClient } from "~/integrations/llm/llm-client.server";
import { startLlmFake, type LlmFake } from "~/integrations/llm/llm-fake";
import { openStream, roomWithToken, send, type SseEvent } from "../setup/chat-api";

// The optional LLM path (DESIGN decision 18) against the fake OpenAI-compatible server, which is itself checked with
// the official `openai` client (7.57.0) so it speaks the real protocol.

const KEY = "sk-test-0123456789";
let fake: LlmFake;

beforeAll(async () => {
  fake = await startLlmFake({
    apiKey: KEY,
    reply: "Según la guía, los implantes requieren una evaluación. Agenda en [Mis Citas](/paciente/citas).",
  });
  // Read once by env() on first use, in this file's own module graph.
  process.env.LLM_BASE_URL = fake.url;
  process.env.LLM_API_KEY = KEY;
  process.env.LLM_MODEL = "fake-model";
  process.env.LLM_TIMEOUT_MS = "2000";
  // The agent reads the treatments catalogue: open (and migrate) the database before the timed tests.
  await getDb();
}, 120_000);

afterAll(async () => {
  await fake.close();
  await closeDb();
});

describe("the fake speaks the OpenAI protocol", () => {
  it("streams chunks and [DONE] that the official client reads, and refuses a wrong key", async () => {
    const client = new OpenAI({ baseURL: fake.url, apiKey: KEY });
    const stream = await client.chat.completions.create({
      model: "fake-model",
      messages: [{ role: "user", content: "hola" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe(fake.reply);
    const whole = await client.chat.completions.create({
      model: "fake-model",
      messages: [{ role: "user", content: "hola" }],
    });
    expect(whole.choices[0]?.message.content).toBe(fake.reply);
    const wrong = new OpenAI({ baseURL: fake.url, apiKey: "sk-wrong", maxRetries: 0 });
    await expect(
      wrong.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toThrow(/401/);
  });
});

describe("our LLM client and the agent's LLM path", () => {
  it("streams token by token", async () => {
    const client = createLlmClient({
      baseUrl: fake.url,
      apiKey: KEY,
      model: "fake-model",
      // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
      // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
      timeoutMs: 10_000,
      maxTokens: 500,
      maxChars: 4000,
    });
    const tokens: string[] = [];
    const text = await client.streamChat([{ role: "user", content: "hola" }], (token) => tokens.push(token));
    expect(text).toBe(fake.reply);
    expect(tokens.length).toBeGreaterThan(3);
  });

  it("answers with the model, grounded in retrieved passages, and falls back offline on a mid-stream failure", async () => {
    const { agentTurn } = await import("~/features/agent/agent-service.server");
    fake.failMidStream = false;
    const streamed: string[] = [];
    const turn = await agentTurn({
      text: "¿Qué tratamiento necesito para mis dientes amarillos?",
      onToken: (t) => streamed.push(t),
    });
    expect(turn.content).toBe(fake.reply);
    expect(streamed.join("")).toBe(fake.reply);
    const system = fake.requests.at(-1)!.messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain("no diagnosticas");
    expect(system.content).toMatch(/\(\/blog\/|\(\/guias\//);

    fake.failMidStream = true;
    const fallback = await agentTurn({ text: "¿Qué tratamiento necesito para mis dientes amarillos?" });
    expect(fallback.content).toContain("depende de una evaluación clínica");
    fake.failMidStream = false;

    // Emergencies never go to the model.
    const before = fake.requests.length;
    const emergency = await agentTurn({ text: "me sangra mucho la encía" });
    expect(emergency.intent).toBe("emergency");
    expect(fake.requests.length).toBe(before);
  });
});

/** The draft a client builds from the agent-delta events of one reply (pieces applied at their offset). */
function draftOf(events: SseEvent[], id: string) {
  let text = "";
  for (const event of events) {
    if (event.event !== "agent-delta" || event.data.id !== id) continue;
    if (event.data.offset === text.length) text += event.data.delta ?? "";
  }
  return text;
}

describe("the room relays the model's reply token by token", () => {
  const question = "¿Qué tratamiento necesito para mis dientes amarillos?";

  it("streams agent-delta events before the final message, which is stored once under the draft's id", async () => {
    fake.failMidStream = false;
    fake.tokenDelayMs = 15;
    try {
      const { roomId, token } = await roomWithToken();
      const stream = openStream(roomId, token);
      // Deltas are not stored: subscribed before the question, or the first pieces pass by unseen.
      await stream.ready;
      expect((await send(roomId, token, question)).status).toBe(201);
      const [, reply] = await stream.waitForMessages(2);
      expect(reply!.data).toMatchObject({ author: "agent", content: fake.reply });
      const replyId = reply!.data.id!;
      const at = stream.events.indexOf(reply!);
      const before = stream.events.slice(0, at).filter((e) => e.event === "agent-delta");
      // Several pieces (one per word, 15 ms apart), all before the stored message, growing the same draft.
      expect(before.length).toBeGreaterThan(3);
      expect(before.every((e) => e.data.id === replyId && !e.id)).toBe(true);
      expect(draftOf(stream.events.slice(0, at), replyId)).toBe(fake.reply);
      // The draft is then closed; drafts are not stored and not replayed on resume.
      await until(() => stream.events.some((e) => e.event === "agent-delta" && e.data.done));
      await stream.close();
      const resumed = openStream(roomId, token, 0);
      await resumed.waitForMessages(2);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(resumed.events.some((e) => e.event === "agent-delta")).toBe(false);
      expect(resumed.messages().filter((e) => e.data.author === "agent")).toHaveLength(1);
      await resumed.close();
    } finally {
      fake.tokenDelayMs = 0;
    }
  });

  it("a mid-stream failure replaces the draft with the offline answer: no half message is stored", async () => {
    fake.failMidStream = true;
    fake.tokenDelayMs = 15;
    try {
      const { roomId, token } = await roomWithToken();
      const stream = openStream(roomId, token);
      // Deltas are not stored: subscribed before the question, or the first pieces pass by unseen.
      await stream.ready;
      expect((await send(roomId, token, question)).status).toBe(201);
      const [, reply] = await stream.waitForMessages(2);
      const replyId = reply!.data.id!;
      const at = stream.events.indexOf(reply!);
      const partial = draftOf(stream.events.slice(0, at), replyId);
      expect(partial.length).toBeGreaterThan(0);
      expect(fake.reply.startsWith(partial)).toBe(true);
      expect(reply!.data.content).toContain("depende de una evaluación clínica");
      expect(reply!.data.content).not.toContain(partial.trim());
      await until(() => stream.events.some((e) => e.event === "agent-delta" && e.data.done));
      const agentMessages = stream.messages().filter((e) => e.data.author === "agent");
      expect(agentMessages).toHaveLength(1);
      await stream.close();
    } finally {
      fake.failMidStream = false;
      fake.tokenDelayMs = 0;
    }
  });
});

async function until(check: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
