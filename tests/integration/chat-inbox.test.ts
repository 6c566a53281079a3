import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { AI_NOTICE_VERSION } from "~/features/chat/chat-schema";
import { action as inboxAction, loader as inboxLoader } from "~/routes/_staff/conversations";
import { postAs, randomIp, requestAs } from "../setup/clients";
import { callChatRoute } from "../setup/chat-api";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser } from "../setup/users";

afterAll(closeDb);

const ACCOUNT = "clinica-chat";

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  init: { cookie?: string; bearer?: string; body?: unknown } = {},
) {
  // Its own address per call: the per-address limits must not add up across files sharing one PostgreSQL database.
  const headers: Record<string, string> = { "x-clinica-client-ip": randomIp() };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  const request = requestAs(init.cookie, `/api/chat/${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const response = await callChatRoute(method, path, request);
  return { status: response.status, body: (await response.json()) as T };
}

async function patientRoom() {
  const patient = await createTestUser({ firstName: "Paula Andrea" });
  const guest = await api<{ id: string }>("POST", "guest", {
    cookie: patient.cookie,
    body: { account_id: ACCOUNT },
  });
  const room = await api<{ room_id: string }>("POST", "guest/room", {
    cookie: patient.cookie,
    body: { account_id: ACCOUNT, guest_id: guest.body.id, agent_id: "dentist-bot" },
  });
  const login = await api<{ access_token: string }>(
    "POST",
    `guest/login?guest_id=${guest.body.id}&account_id=${ACCOUNT}`,
    { cookie: patient.cookie },
  );
  return { roomId: room.body.room_id, token: login.body.access_token };
}

type History = { status: string; messages: Array<{ author: string; kind: string; content: string }> };

const staffDo = async (cookie: string, fields: Record<string, string>) =>
  settle<{ ok: boolean; message?: string }>(() =>
    inboxAction(routeArgs(postAs(cookie, "/equipo/conversaciones", fields))),
  );

describe("handoff and the staff inbox", () => {
  it("'Hablar con una persona' works without the AI notice; the agent then stays quiet", async () => {
    const { roomId, token } = await patientRoom();
    const handoff = await api("POST", `rooms/${roomId}/handoff`, { bearer: token, body: {} });
    expect(handoff.body.status).toBe("pending_human");
    const sent = await api("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id: randomUUID(), content: "¿Cuáles son los precios?" },
    });
    expect(sent.status).toBe(201);
    const history = await api<History>("GET", `rooms/${roomId}`, { bearer: token });
    expect(history.body.messages.map((message) => message.author)).toEqual(["system", "guest"]);
    expect(history.body.messages[0]!.content).toContain("Una persona del equipo te responderá");
  });

  it("the agent hands an emergency off by itself, with reason and summary for staff", async () => {
    const { roomId, token } = await patientRoom();
    await api("POST", `rooms/${roomId}/consent`, {
      bearer: token,
      body: { version: AI_NOTICE_VERSION, accepted: true },
    });
    await api("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id: randomUUID(), content: "Tengo la cara hinchada y fiebre" },
    });
    const asesor = await createTestUser({ roles: ["asesor"] });
    const page = await settle<{
      rooms: Array<{
        id: string;
        status: string;
        handoffReason: string;
        waitingSince: string;
        guestName: string;
      }>;
    }>(() => inboxLoader(routeArgs(requestAs(asesor.cookie, `/equipo/conversaciones?sala=${roomId}`))));
    const listed = page.body.rooms.find((room) => room.id === roomId);
    expect(listed).toMatchObject({
      status: "pending_human",
      handoffReason: "Posible urgencia",
      guestName: "Paula Andrea",
    });
    expect(listed!.waitingSince).toBeTruthy();
  });

  it("two staff taking at once: exactly one wins; only the taker replies; notes never reach the patient", async () => {
    const { roomId, token } = await patientRoom();
    await api("POST", `rooms/${roomId}/handoff`, { bearer: token, body: { reason: "Consulta de pago" } });
    const [first, second] = await Promise.all([
      createTestUser({ roles: ["asesor"] }),
      createTestUser({ roles: ["dentista"] }),
    ]);
    const results = await Promise.all([
      staffDo(first.cookie, { intent: "take", roomId }),
      staffDo(second.cookie, { intent: "take", roomId }),
    ]);
    // The loser is told a colleague has it (403, issue 19 item 12), whether it decided before or after the winner
    // wrote: the answer does not depend on the interleaving.
    const statuses = results.map((result) => result.status).toSorted();
    expect(statuses).toEqual([200, 403]);
    const winner = results[0]!.status === 200 ? first : second;
    const loser = winner === first ? second : first;

    const intruder = await staffDo(loser.cookie, { intent: "reply", roomId, content: "Hola" });
    expect(intruder.status).toBe(409);
    expect(
      (await staffDo(winner.cookie, { intent: "reply", roomId, content: "<b>Hola</b>, soy del equipo" }))
        .status,
    ).toBe(200);
    expect(
      (await staffDo(loser.cookie, { intent: "note", roomId, content: "Paciente VIP, no cobrar" })).status,
    ).toBe(200);

    const patientView = await api<History>("GET", `rooms/${roomId}`, { bearer: token });
    expect(patientView.body.status).toBe("open");
    expect(
      patientView.body.messages.some((message) => message.content === "<b>Hola</b>, soy del equipo"),
    ).toBe(true);
    expect(patientView.body.messages.some((message) => message.content.includes("VIP"))).toBe(false);

    // Hand back to the agent; nobody holds it then, so resolving it is an admin's (domain/inbox-permissions.ts).
    expect((await staffDo(winner.cookie, { intent: "handback", roomId })).status).toBe(200);
    expect((await api<History>("GET", `rooms/${roomId}`, { bearer: token })).body.status).toBe("bot");
    expect((await staffDo(winner.cookie, { intent: "resolve", roomId })).status).toBe(403);
    const admin = await createTestUser({ roles: ["admin"] });
    expect((await staffDo(admin.cookie, { intent: "resolve", roomId })).status).toBe(200);
    const closed = await api("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id: randomUUID(), content: "¿sigue ahí?" },
    });
    expect(closed.status).toBe(409);
  });

  it("a patient cannot open the inbox", async () => {
    const patient = await createTestUser();
    const result = await settle(() =>
      inboxLoader(routeArgs(requestAs(patient.cookie, "/equipo/conversaciones"))),
    );
    expect(result.status).toBe(403);
  });
});
