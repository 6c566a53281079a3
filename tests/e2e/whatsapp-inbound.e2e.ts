import { expect, test } from "@playwright/test";
import { whatsAppFakeUrl } from "../../playwright.config";
import { DEMO_PASSWORD, openPage, signInByRequest } from "./support";

// ADR 020: a person writes to the clinic's WhatsApp number (the fake provider posts Infobip's inbound body to
// /api/whatsapp/inbound with the shared secret); the unknown number becomes a lead in the staff lead panel, and its
// two messages reach the provider, the advisor's notice first.

const DEMO_ADVISOR = "asesor@clinica.example";

interface SentMessage {
  endpoint: "text" | "template";
  to: string;
  text?: string;
  template?: string;
  placeholders?: string[];
}

/** Whether a message sent to the clinic names `name` (in its text, or in its template's placeholders). */
const names = (message: SentMessage, name: string) =>
  [message.text ?? "", ...(message.placeholders ?? [])].some((part) => part.includes(name));

test("an inbound WhatsApp message from an unknown number shows up as a new lead on /funnel", async ({
  page,
  request,
}) => {
  const suffix = Math.random()
    .toString(36)
    .replace(/[^a-z]/g, "")
    .slice(0, 6);
  const name = `Rosa Mensajera${suffix}`;
  const from = `569${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const text = `Hola, quiero saber el precio de un implante (${suffix}).`;

  const posted = await request.post(`${whatsAppFakeUrl}/__fake/inbound`, {
    data: { from, text, contactName: name },
  });
  expect(posted.status()).toBe(200);
  // What our webhook answered the fake: 200 once the lead is stored.
  expect(await posted.json()).toMatchObject({ kind: "inbound", status: 200 });

  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, `/funnel?tab=leads&q=${encodeURIComponent(name)}`);
  const card = page.getByTestId("lead-card").filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(name);
  await expect(card).toContainText("WhatsApp");
  await expect(card).toContainText(text);

  // The worker delivers the lead's two messages to the provider: the clinic's notice, then the patient's reply.
  await expect
    .poll(
      async () => {
        const answer = await request.get(`${whatsAppFakeUrl}/__fake/sent`);
        const { sent } = (await answer.json()) as { sent: SentMessage[] };
        return sent
          .filter((message) => message.to === from || names(message, name))
          .map((message) => [message.to === from ? "patient" : "clinic", message.endpoint]);
      },
      { timeout: 20_000 },
    )
    .toEqual([
      ["clinic", expect.any(String)],
      ["patient", "text"],
    ]);
});
