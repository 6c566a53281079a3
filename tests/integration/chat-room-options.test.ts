import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { updateRoom } from "~/features/chat/chat-repository.server";
import { ChatRoom } from "~/features/chat/components/chat-room";
import { loader } from "~/routes/_chat/room";
import { api, roomWithToken } from "../setup/chat-api";
import { createTestUser } from "../setup/users";

afterAll(closeDb);

// The room page's query options (the widget's documented options and defaults): each one read by the loader, validated with its default,
// and visible in the server-rendered page.

const ROOM = "0b6f7c7e-2f55-4d5c-9a55-1f3a3a6f2a10";

function page(query: string) {
  const request = new Request(`http://localhost:3000/chat/sala/${ROOM}${query}`);
  const options = loader({ request, params: { roomId: ROOM } } as unknown as Parameters<typeof loader>[0]);
  return { options, html: renderToString(createElement(ChatRoom, { options })) };
}

describe("room page query options", () => {
  it("defaults: light theme, bottom-right, black blurred background, radius 16, chat only", () => {
    const { options, html } = page("");
    expect(options).toMatchObject({
      theme: "light",
      position: "bottom-right",
      backgroundColor: "#000000",
      backgroundBlur: true,
      borderRadius: 16,
      tabs: false,
      members: false,
      settings: false,
      voiceEnabled: false,
      conversationHistory: true,
      primaryColor: "#DC2626",
    });
    expect(html).toContain('data-theme="light"');
    expect(html).toContain('data-position="bottom-right"');
    expect(html).toContain("background-color:#000000");
    expect(html).toContain('data-background-blur="true"');
    expect(html).not.toContain('role="tablist"');
    expect(html).not.toContain("Miembros");
    expect(html).not.toContain("Ajustes");
  });

  it("theme=dark renders the dark palette", () => {
    const light = page("").html;
    const { html } = page("?theme=dark");
    expect(html).toContain('data-theme="dark"');
    expect(html).toContain("bg-slate-900 text-slate-100");
    expect(light).not.toContain("bg-slate-900 text-slate-100");
  });

  it("position, room size, radius, background colour and blur place and paint the room", () => {
    const { html } = page(
      "?position=top-left&room_width=450&room_height=600&border_radius=8&background_color=%23112233&background_blur=false",
    );
    expect(html).toContain('data-position="top-left"');
    expect(html).toContain("items-start justify-start");
    expect(html).toContain("background-color:#112233");
    expect(html).toContain('data-background-blur="false"');
    expect(html).not.toContain("backdrop-blur-md");
    expect(html).toMatch(/max-width:450px;max-height:600px;border-radius:8px/);
  });

  it("tabs with members and settings render a tab list; without tabs, header buttons", () => {
    const tabbed = page("?tabs=true&members=true&settings=true").html;
    expect(tabbed).toContain('role="tablist"');
    expect(tabbed).toMatch(/role="tab"[^>]*>Chat</);
    expect(tabbed).toMatch(/role="tab"[^>]*>Miembros</);
    expect(tabbed).toMatch(/role="tab"[^>]*>Ajustes</);

    const buttons = page("?members=1&settings=1").html;
    expect(buttons).not.toContain('role="tablist"');
    expect(buttons).toContain('aria-label="Miembros de la conversación"');
    expect(buttons).toContain('aria-label="Ajustes del chat"');

    const onlyMembers = page("?members=true").html;
    expect(onlyMembers).toContain('aria-label="Miembros de la conversación"');
    expect(onlyMembers).not.toContain('aria-label="Ajustes del chat"');
  });

  it("voice_enabled never renders a mic on the server (it appears only where the browser can dictate)", () => {
    const { options, html } = page("?voice_enabled=true");
    expect(options.voiceEnabled).toBe(true);
    expect(html).not.toContain("Dictar mensaje");
  });

  it("attack: bad values fall back to the defaults and never reach a style attribute", () => {
    const { options, html } = page(
      "?theme=%3Cscript%3E&position=middle&background_color=red;position:fixed&primary_color=url(x)&border_radius=999&room_width=-5&tabs=yes&title=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    );
    expect(options).toMatchObject({
      theme: "light",
      position: "bottom-right",
      backgroundColor: "#000000",
      primaryColor: "#DC2626",
      borderRadius: 16,
      roomWidth: null,
      tabs: false,
    });
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("position:fixed");
  });
});

describe("the members panel's data", () => {
  it("lists the guest, the virtual dentist and, once taken, the staff member by first name only", async () => {
    const { roomId, token } = await roomWithToken();
    const read = async () =>
      ((await (await api("GET", `rooms/${roomId}`, { bearer: token })).json()) as { members: unknown[] })
        .members;
    expect(await read()).toEqual([
      { role: "guest", name: "Anonymous Visitor" },
      { role: "agent", name: "Dentista Virtual IA" },
    ]);
    const asesor = await createTestUser({ roles: ["asesor"], firstName: "Carla" });
    await updateRoom(await getDb(), roomId, { status: "open", assignedTo: asesor.id });
    const members = await read();
    expect(members).toContainEqual({ role: "staff", name: "Carla" });
    expect(JSON.stringify(members)).not.toContain(asesor.email);
  });
});
