import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { chatRooms, consents } from "~/db/schema";
import { contactSubject, withdrawConsent } from "~/features/consent/consent-service.server";
import { startLlmFake, type LlmFake } from "~/integrations/llm/llm-fake";
import { roomWithToken, send } from "../setup/chat-api";

// What the LLM provider reads (ADR 037): a guest's message as written while their 'chat_ia' consent is in force, and
// without e-mail, RUT, phone or name once it is withdrawn. Checked at the fake OpenAI-compatible server itself.

const KEY = "sk-test-consent-0123456789";
let fake: LlmFake;

beforeAll(async () => {
  fake = await startLlmFake({
    apiKey: KEY,
    reply: "Te recomendamos una evaluación. Agenda en [Mis Citas](/paciente/citas).",
  });
  process.env.LLM_BASE_URL = fake.url;
  process.env.LLM_API_KEY = KEY;
  process.env.LLM_MODEL = "fake-model";
  process.env.LLM_TIMEOUT_MS = "2000";
  await getDb();
}, 120_000);

afterAll(async () => {
  await fake.close();
  await closeDb();
});

const question =
  "¿Qué tratamiento necesito para mis dientes amarillos? Escríbanme a ana.perez@example.cl, RUT 12.345.678-5, fono +56 9 1234 5678";

function lastUserMessage() {
  return fake.requests.at(-1)!.messages.find((message) => message.role === "user")!.content;
}

describe("the LLM path and the chat_ia consent", () => {
  it("records the AI notice in the ledger, and redacts identifying data once the consent is withdrawn", async () => {
    const db = await getDb();
    const { roomId, token } = await roomWithToken();
    const [room] = await db
      .select({ guestId: chatRooms.guestId })
      .from(chatRooms)
      .where(eq(chatRooms.id, roomId));
    const guestId = room!.guestId;
    const [ledger] = await db
      .select()
      .from(consents)
      .where(and(eq(consents.chatGuestId, guestId), eq(consents.purpose, "chat_ia")));
    expect(ledger).toMatchObject({ textVersion: "v1", channel: "chat", withdrawnAt: null });

    const before = fake.requests.length;
    expect((await send(roomId, token, question)).status).toBe(201);
    expect(fake.requests.length).toBe(before + 1);
    expect(lastUserMessage()).toBe(question);

    await withdrawConsent(db, {
      subject: contactSubject({}),
      chatGuestId: guestId,
      purpose: "chat_ia",
      channel: "mis_datos",
    });
    expect((await send(roomId, token, question)).status).toBe(201);
    expect(fake.requests.length).toBe(before + 2);
    const sent = lastUserMessage();
    expect(sent).not.toContain("ana.perez@example.cl");
    expect(sent).not.toContain("12.345.678-5");
    expect(sent).not.toContain("1234 5678");
    expect(sent).toContain("[correo]");
    expect(sent).toContain("[RUT]");
    expect(sent).toContain("[teléfono]");
    expect(sent).toContain("dientes amarillos");
    // Nothing identifying reached the system prompt either: only the clinic's own sources.
    expect(JSON.stringify(fake.requests.at(-1)!.messages)).not.toContain("ana.perez");
  });
});
