import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rutCheckDigit } from "~/domain/rut";
import { uniquePhone } from "../setup/clients";
import {
  httpForm,
  httpRequest,
  projectRoot,
  startProdServer,
  type HttpResponse,
  type ProdServer,
} from "../setup/prod-server";

// Issue 25: personal data never reaches the logs. The production server logs at trace level (everything it would
// ever write) while one test person leaves a lead on the landing form, signs up, books an appointment with a note and
// asks for their clinical record by RUT; then the captured output is searched for each of their details.

const person = (() => {
  const tag = randomUUID().slice(0, 8);
  const rutBody = String(10_000_000 + Math.floor(Math.random() * 9_000_000));
  const rut = `${rutBody}-${rutCheckDigit(rutBody)}`;
  return {
    firstName: `Valentina${tag}`,
    lastName: `Observada${tag}`,
    email: `valentina-${tag}@example.com`,
    phone: uniquePhone(),
    rutBody,
    rut,
    message: `Me duele la muela del juicio desde el lunes, referencia ${tag}`,
    notes: `Llegaré con mi hija ${tag}, sensibilidad al frío`,
  };
})();

/** Each form the person's data could take in a log line. */
function traces(): string[] {
  const mobile = person.phone.slice(4); // 8 digits after +569
  const rutDotted = person.rutBody.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return [
    person.firstName,
    person.lastName,
    person.email,
    person.email.split("@")[0]!,
    person.phone,
    `9${mobile}`,
    `${mobile.slice(0, 4)} ${mobile.slice(4)}`,
    person.rutBody,
    rutDotted,
    person.message,
    person.message.slice(0, 24),
    person.notes,
    person.notes.slice(0, 20),
  ];
}

function cookieHeader(responses: HttpResponse[]): string {
  const jar = new Map<string, string>();
  for (const response of responses) {
    for (const header of response.cookies) {
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

function dayAfter(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return date.toISOString().slice(0, 10);
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("personal data in the logs", () => {
  let server: ProdServer;
  let origin: string;

  beforeAll(async () => {
    if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
      throw new Error("run `npx react-router build` first");
    }
    // Demo mode: its dentists and schedules make a booking possible.
    server = await startProdServer({
      DATA_DIR: "memory://",
      SEED_DEMO: "1",
      LOG_LEVEL: "trace",
      ...(process.env.TEST_PGLITE_TEMPLATE ? { TEST_PGLITE_TEMPLATE: process.env.TEST_PGLITE_TEMPLATE } : {}),
    });
    origin = `http://127.0.0.1:${server.port}`;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("a lead, a sign-up, a booking and a RUT leave none of the person's data in the log", async () => {
    const lead = await httpForm(
      server.port,
      "/?index",
      {
        submissionId: randomUUID(),
        name: `${person.firstName} ${person.lastName}`,
        phone: person.phone,
        email: person.email,
        treatment: "implantes",
        urgency: "inmediato",
        budget: "alto",
        message: person.message,
        consent: "on",
      },
      { origin },
    );
    expect(lead.status).toBe(200);
    expect(lead.body).toContain("Recibimos tu solicitud");

    const signUp = await httpForm(
      server.port,
      "/auth",
      {
        intent: "signup",
        firstName: person.firstName,
        lastName: person.lastName,
        email: person.email,
        phone: person.phone,
        password: "clave-segura-2026-observada",
      },
      { origin },
    );
    expect(signUp.status).toBe(302);
    const cookie = cookieHeader([signUp]);
    expect(cookie).toContain("session_token");

    // Booking needs a confirmed address: the demo keeps the mail, which the demo admin reads at /dev/correos.
    const admin = await httpForm(
      server.port,
      "/auth",
      { intent: "signin", email: "admin@clinica.example", password: "clinica-demo-2026" },
      { origin, from: "127.0.0.19" },
    );
    expect(admin.status).toBe(302);
    const mails = await httpRequest(server.port, "/dev/correos", {
      headers: { cookie: cookieHeader([admin]) },
    });
    const link = new RegExp(
      `para <span[^>]*>${person.email.replace(/[.+]/g, "\\$&")}</span>[\\s\\S]*?(https?://[^\\s"<]+/api/auth/verify-email\\?[^\\s"<]+)`,
    ).exec(mails.body)?.[1];
    expect(link).toBeDefined();
    const target = new URL(link!.replaceAll("&amp;", "&"));
    const verified = await httpRequest(server.port, `${target.pathname}${target.search}`, {
      headers: { cookie },
    });
    expect(verified.status).toBe(302);

    // The first day within two weeks with a free time for a cleaning, with any dentist.
    let slot: { date: string; time: string } | undefined;
    for (let day = 1; day <= 14 && !slot; day++) {
      const date = dayAfter(day);
      const answer = await httpRequest(
        server.port,
        `/paciente/citas/horarios?tratamiento=limpieza&dentista=any&fecha=${date}`,
        { headers: { cookie } },
      );
      if (answer.status !== 200) continue;
      const body = JSON.parse(answer.body) as { data?: { slots: Array<{ time: string }> } };
      const first = body.data?.slots[0];
      if (first) slot = { date, time: first.time };
    }
    expect(slot).toBeDefined();
    const booking = await httpForm(
      server.port,
      "/paciente/citas",
      { intent: "book", treatment: "limpieza", dentist: "any", ...slot!, notes: person.notes },
      { origin, headers: { cookie } },
    );
    expect(booking.status).toBe(200);

    const record = await httpForm(
      server.port,
      "/paciente/ficha",
      { intent: "rut", rut: person.rut },
      { origin, headers: { cookie } },
    );
    expect(record.status).toBeLessThan(500);

    // Whatever the outbox and the jobs write about it in the next moments counts too.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const log = server.output();
    // The flows did log (the check below is not vacuous): the lead and the booking, under their request ids.
    expect(log).toContain('"msg":"lead captured"');
    expect(log).toContain('"msg":"appointment booked"');
    const leaks = log.split("\n").filter((line) => traces().some((trace) => line.includes(trace)));
    expect(leaks).toEqual([]);
  }, 120_000);
});
