import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { api, openStream, roomWithToken, send } from "../setup/chat-api";

afterAll(closeDb);

describe("chat room real time (SSE)", () => {
  it("pushes the guest's message and the agent's reply as they are stored", async () => {
    const { roomId, token } = await roomWithToken();
    const stream = openStream(roomId, token);
    await stream.ready;
    expect((await send(roomId, token, "Quiero agendar una cita")).status).toBe(201);
    const [mine, reply] = await stream.waitForMessages(2);
    expect(mine!.data).toMatchObject({ author: "guest", content: "Quiero agendar una cita" });
    expect(reply!.data.author).toBe("agent");
    expect(reply!.data.content).toContain("(/paciente/citas)");
    expect(Number(reply!.id)).toBeGreaterThan(Number(mine!.id));
    await stream.close();
  });

  it("resumes after a disconnect from Last-Event-ID without losing or repeating a message", async () => {
    const { roomId, token } = await roomWithToken();
    const first = openStream(roomId, token);
    await first.ready;
    await send(roomId, token, "¿Cuáles son los precios?");
    const seen = await first.waitForMessages(2);
    const lastId = Number(seen.at(-1)!.id);
    await first.close();

    // While disconnected: two more exchanges.
    await send(roomId, token, "Quiero agendar una cita");
    await send(roomId, token, "¿qué horario tienen?");

    const resumed = openStream(roomId, token, lastId);
    const missed = await resumed.waitForMessages(4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.messages()).toHaveLength(4);
    expect(missed.map((event) => event.data.author)).toEqual(["guest", "agent", "guest", "agent"]);
    expect(missed[0]!.data.content).toBe("Quiero agendar una cita");
    expect(missed.every((event) => Number(event.id) > lastId)).toBe(true);
    await resumed.close();
  });

  it("refuses a stream without a valid token, and for a foreign room", async () => {
    const mine = await roomWithToken();
    const other = await roomWithToken();
    const anonymous = await api("GET", `rooms/${mine.roomId}/events`);
    expect(anonymous.status).toBe(401);
    const foreign = await api("GET", `rooms/${mine.roomId}/events`, { bearer: other.token });
    expect(foreign.status).toBe(404);
  });
});
