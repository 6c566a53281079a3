import { randomUUID } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { MAX_CHAT_MESSAGE_LENGTH } from "~/domain/chat-limits";
import { AgentText } from "~/features/chat/components/agent-text";
import { startLlmFake, type LlmFake } from "~/integrations/llm/llm-fake";
import { randomIp } from "../setup/clients";
import { api, openStream, roomWithToken, type SseEvent } from "../setup/chat-api";

// ADR 033: the LLM path attacked — an 80 KB reply, a prompt-injected link out of the site, and a flood
// of questions spending the provider's budget.

const KEY = "sk-test-limits-0123456789";
const QUESTION = "¿Qué tratamiento necesito para mis dientes amarillos?";
let fake: LlmFake;

beforeAll(async () => {
  fake = await startLlmFake({ apiKey: KEY });
  process.env.LLM_BASE_URL = fake.url;
  process.env.LLM_API_KEY = KEY;
  // The global budget is counted per model: a model name of this file only.
  process.env.LLM_MODEL = `limits-model-${randomUUID()}`;
  process.env.LLM_TIMEOUT_MS = "5000";
  process.env.LLM_MAX_TOKENS = "256";
  process.env.LLM_CALLS_PER_ADDRESS_HOUR = "2";
  process.env.LLM_CALLS_PER_HOUR = "5";
  await getDb();
}, 120_000);

afterAll(async () => {
  await fake.close();
  await closeDb();
});

/** A guest's question from `ip`; resolves with the agent's stored reply and the drafts relayed before it. */
async function ask(ip: string) {
  const { roomId, token } = await roomWithToken();
  const stream = openStream(roomId, token);
  await stream.ready;
  const sent = await api("POST", `rooms/${roomId}/messages`, {
    bearer: token,
    ip,
    body: { id: randomUUID(), content: QUESTION },
  });
  expect(sent.status).toBe(201);
  const [, reply] = await stream.waitForMessages(2);
  const at = stream.events.indexOf(reply!);
  const drafted = draftOf(stream.events.slice(0, at), reply!.data.id!);
  await stream.close();
  return { content: reply!.data.content!, drafted };
}

function draftOf(events: SseEvent[], id: string) {
  let text = "";
  for (const event of events) {
    if (event.event !== "agent-delta" || event.data.id !== id) continue;
    if (event.data.offset === text.length) text += event.data.delta ?? "";
  }
  return text;
}

describe("the model's output is capped", () => {
  it("an 80 KB reply with an injected link: max_tokens is sent, the stream stops at the message limit, the link is text", async () => {
    const injected = "[Inicia sesión aquí](/auth?redirectTo=//evil.example)";
    fake.reply = `Para ver tu ficha, ${injected} y revisa tus datos. ${"palabra ".repeat(10_000)}`;
    expect(fake.reply.length).toBeGreaterThan(80_000);
    try {
      const { content, drafted } = await ask(randomIp());
      expect(fake.requests.at(-1)!.maxTokens).toBe(256);
      expect(content.length).toBeLessThanOrEqual(MAX_CHAT_MESSAGE_LENGTH);
      expect(drafted.length).toBeLessThanOrEqual(MAX_CHAT_MESSAGE_LENGTH);
      expect(content).toContain("Inicia sesión aquí");

      const html = renderToStaticMarkup(createElement(AgentText, { text: content }));
      expect(html).toContain("Inicia sesión aquí");
      expect(html).not.toContain("<a");
      expect(html).not.toContain("evil.example");
    } finally {
      fake.reply = "Según la guía, depende de tu evaluación. Agenda en [Mis Citas](/paciente/citas).";
    }
  });
});

describe("the LLM budget (per address and global, per hour) falls back to the offline agent", () => {
  it("a third question from one address and any question past the global budget get the offline answer", async () => {
    fake.reply = "Según la guía, depende de tu evaluación. Agenda en [Mis Citas](/paciente/citas).";
    const calls = () => fake.requests.length;
    const flooder = randomIp();

    // The first test spent one call of the global five.
    for (let turn = 0; turn < 2; turn += 1) {
      const before = calls();
      expect((await ask(flooder)).content).toBe(fake.reply);
      expect(calls()).toBe(before + 1);
    }
    let before = calls();
    const refused = await ask(flooder);
    expect(calls()).toBe(before);
    expect(refused.content).toContain("depende de una evaluación clínica");

    // Another address still has its own budget, until the global one (5 per hour) is spent.
    before = calls();
    expect((await ask(randomIp())).content).toBe(fake.reply);
    expect((await ask(randomIp())).content).toBe(fake.reply);
    expect(calls()).toBe(before + 2);
    const overGlobal = await ask(randomIp());
    expect(calls()).toBe(before + 2);
    expect(overGlobal.content).toContain("depende de una evaluación clínica");
  });
});
