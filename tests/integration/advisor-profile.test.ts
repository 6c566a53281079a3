import { asc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { advisorMessages, treatmentsCatalog, users } from "~/db/schema";
import { ADVISOR_MAX_MESSAGE_LENGTH } from "~/domain/advisor-replies";
import { activeRoleNames } from "~/db/accounts.server";
import {
  ADVISOR_RATE_LIMITED_ERROR,
  ADVISOR_TOO_LONG_ERROR,
  type AdvisorActionData,
  type AdvisorMessageDto,
} from "~/features/advisor/advisor-schema";
import {
  WHATSAPP_NEEDS_PHONE,
  type ProfileActionData,
  type ProfileDto,
} from "~/features/profile/profile-schema";
import { PHONE_ERROR } from "~/lib/validation";
import { action as advisorAction, loader as advisorLoader } from "~/routes/_patient/advisor";
import { loader as dashboardLoader } from "~/routes/_patient/dashboard";
import { action as profileAction, loader as profileLoader } from "~/routes/_patient/profile";
import { settle } from "../setup/route-results";
import { routeArgs } from "../setup/route-args";
import { postAs, requestAs } from "../setup/clients";
import { createTestUser, insertAppointments, type TestUser } from "../setup/factories";

afterAll(closeDb);

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

async function conversation(user: TestUser) {
  const result = await settle<{ messages: AdvisorMessageDto[] }>(() =>
    advisorLoader(routeArgs(requestAs(user.cookie, "/paciente/asesor"))),
  );
  expect(result.status).toBe(200);
  return result.body.messages;
}

async function say(user: TestUser, content: string) {
  return settle<AdvisorActionData>(() =>
    advisorAction(routeArgs(postAs(user.cookie, "/paciente/asesor", { content }))),
  );
}

async function userRow(userId: string) {
  const db = await getDb();
  const [found] = await db.select().from(users).where(eq(users.id, userId));
  if (!found) throw new Error("user row missing");
  return found;
}

async function save(user: TestUser, fields: Record<string, string>) {
  return settle<ProfileActionData>(() =>
    profileAction(routeArgs(postAs(user.cookie, "/paciente/perfil", fields))),
  );
}

async function storedMessages(userId: string) {
  const db = await getDb();
  return db
    .select()
    .from(advisorMessages)
    .where(eq(advisorMessages.userId, userId))
    .orderBy(asc(advisorMessages.createdAt));
}

/**
 * A patient whose conversation was opened (the stored welcome) and who sent `said`: each test has its own, so none
 * depends on another having run first.
 */
async function patientWithConversation(firstName: string, said: string[] = []): Promise<TestUser> {
  const patient = await createTestUser({ firstName });
  await conversation(patient);
  for (const content of said) expect((await say(patient, content)).status).toBe(200);
  return patient;
}

describe("Asesor Virtual (/paciente/asesor)", () => {
  it("starts with a stored welcome message addressed to the user", async () => {
    const ana = await createTestUser({ firstName: "Ana" });
    const first = await conversation(ana);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ role: "assistant", type: "general" });
    expect(first[0]!.content).toContain("¡Hola Ana!");
    expect(first[0]!.time).toMatch(HH_MM);
    // A second load shows the same stored welcome, not a new one.
    const again = await conversation(ana);
    expect(again.map((message) => message.id)).toEqual([first[0]!.id]);
    expect(await storedMessages(ana.id)).toHaveLength(1);
  });

  it("answers by the spec's rules: appointment, emergency and the help menu", async () => {
    const ana = await patientWithConversation("Ana");
    const booking = await say(ana, "quiero agendar una cita");
    expect(booking.status).toBe(200);
    if (!booking.body.ok) throw new Error("expected ok");
    expect(booking.body.data.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(booking.body.data.messages[0]).toMatchObject({ content: "quiero agendar una cita", role: "user" });
    expect(booking.body.data.messages[1]!.type).toBe("appointment");
    expect(booking.body.data.messages[1]!.content).toContain("Mis Citas");
    expect(booking.body.data.messages[1]!.content).toContain("+56 2 2345 6789");
    expect(booking.body.data.messages[1]!.content).toContain("Lunes a viernes, 9:00 a 18:00 hrs");
    for (const message of booking.body.data.messages) expect(message.time).toMatch(HH_MM);

    const pain = await say(ana, "me duele una muela");
    if (!pain.body.ok) throw new Error("expected ok");
    expect(pain.body.data.messages[1]!.type).toBe("emergency");
    expect(pain.body.data.messages[1]!.content).toContain("131");

    const hello = await say(ana, "hola");
    if (!hello.body.ok) throw new Error("expected ok");
    expect(hello.body.data.messages[1]!.type).toBe("general");
    for (const keyword of ["CITAS", "TRATAMIENTOS", "CONTACTO", "EMERGENCIA"]) {
      expect(hello.body.data.messages[1]!.content).toContain(keyword);
    }
  });

  it("keeps the conversation: a later load returns the stored messages in order", async () => {
    const ana = await patientWithConversation("Ana", [
      "quiero agendar una cita",
      "me duele una muela",
      "hola",
    ]);
    const messages = await conversation(ana);
    expect(messages.map((message) => [message.role, message.type])).toEqual([
      ["assistant", "general"],
      ["user", "general"],
      ["assistant", "appointment"],
      ["user", "general"],
      ["assistant", "emergency"],
      ["user", "general"],
      ["assistant", "general"],
    ]);
    expect(messages.filter((message) => message.role === "user").map((message) => message.content)).toEqual([
      "quiero agendar una cita",
      "me duele una muela",
      "hola",
    ]);
  });

  it("refuses 2,001 characters with a Spanish message and stores nothing; 2,000 are accepted", async () => {
    const ana = await patientWithConversation("Ana");
    const before = (await storedMessages(ana.id)).length;
    const tooLong = await say(ana, "a".repeat(ADVISOR_MAX_MESSAGE_LENGTH + 1));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: ADVISOR_TOO_LONG_ERROR,
      fieldErrors: { content: [ADVISOR_TOO_LONG_ERROR] },
    });
    expect(ADVISOR_TOO_LONG_ERROR).toBe("Tu mensaje puede tener hasta 2.000 caracteres.");
    expect(await storedMessages(ana.id)).toHaveLength(before);

    const blank = await say(ana, "   \n  ");
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ ok: false, message: "Escribe tu consulta antes de enviarla." });
    expect(await storedMessages(ana.id)).toHaveLength(before);

    const longest = await say(ana, `  ${"b".repeat(ADVISOR_MAX_MESSAGE_LENGTH)}  `);
    expect(longest.status).toBe(200);
    expect(await storedMessages(ana.id)).toHaveLength(before + 2);
  });

  it("stores markup verbatim (it is rendered as text) and keeps line breaks typed with Shift+Enter", async () => {
    const ana = await patientWithConversation("Ana");
    const script = '<script>alert("xss")</script><img src=x onerror=alert(1)>';
    const result = await say(ana, script);
    if (!result.body.ok) throw new Error("expected ok");
    expect(result.body.data.messages[0]!.content).toBe(script);
    const stored = await storedMessages(ana.id);
    expect(stored.some((row) => row.role === "user" && row.content === script)).toBe(true);

    const lines = await say(ana, "primera línea\r\nsegunda línea");
    if (!lines.body.ok) throw new Error("expected ok");
    expect(lines.body.data.messages[0]!.content).toBe("primera línea\nsegunda línea");
  });

  it("never shows one patient's messages to another", async () => {
    const ana = await patientWithConversation("Ana", ['<script>alert("xss")</script>']);
    const bruno = await createTestUser({ firstName: "Bruno" });
    await say(bruno, "hola");
    const brunos = await conversation(bruno);
    expect(brunos).toHaveLength(3);
    expect(brunos[0]!.content).toContain("¡Hola Bruno!");
    const anasIds = new Set((await storedMessages(ana.id)).map((row) => row.id));
    expect(brunos.some((message) => anasIds.has(message.id))).toBe(false);
    expect(brunos.some((message) => message.content.includes("script"))).toBe(false);
  });

  it("refuses a flood of messages with a Spanish message (per account)", async () => {
    const flooder = await createTestUser({ firstName: "Rápido" });
    for (let index = 0; index < 20; index += 1)
      expect((await say(flooder, `mensaje ${index}`)).status).toBe(200);
    const refused = await say(flooder, "uno más");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ ok: false, code: "RATE_LIMITED", message: ADVISOR_RATE_LIMITED_ERROR });
    expect(await storedMessages(flooder.id)).toHaveLength(1 + 20 * 2);
  });

  it("requires a session for the loader and the action", async () => {
    const load = await settle(() => advisorLoader(routeArgs(requestAs(undefined, "/paciente/asesor"))));
    expect(load.status).toBe(302);
    expect(load.location).toBe("/auth?redirectTo=%2Fpaciente%2Fasesor");
    const send = await settle(() =>
      advisorAction(routeArgs(postAs(undefined, "/paciente/asesor", { content: "hola" }))),
    );
    expect(send.status).toBe(302);
  });
});

describe("Mi Perfil (/paciente/perfil)", () => {
  const validProfile = {
    firstName: "Carla",
    lastName: "Núñez",
    phone: "9 8765 4321",
    address: "Los Leones 123, depto. 45\nProvidencia",
    emergencyContact: "Pedro Núñez",
    emergencyPhone: "+56 (2) 2345-6789",
  };

  it("loads only the caller's own row as a DTO", async () => {
    const user = await createTestUser({ firstName: "Elena" });
    const result = await settle<{ profile: ProfileDto }>(() =>
      profileLoader(routeArgs(requestAs(user.cookie, "/paciente/perfil"))),
    );
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.profile).toSorted()).toEqual(
      [
        "address",
        "email",
        "emergencyContact",
        "emergencyPhone",
        "firstName",
        "lastName",
        "phone",
        "updatedAt",
        "whatsappOptIn",
      ].toSorted(),
    );
    expect(result.body.profile).toMatchObject({
      firstName: "Elena",
      lastName: "Test",
      email: user.email,
      phone: "",
      whatsappOptIn: false,
    });
  });

  it("saves the fields, stores Chilean phones as E.164 and moves updated_at", async () => {
    const user = await createTestUser({ firstName: "Carla" });
    const db = await getDb();
    const past = new Date("2024-01-01T12:00:00Z");
    await db.update(users).set({ updatedAt: past }).where(eq(users.id, user.id));

    const result = await save(user, validProfile);
    expect(result.status).toBe(200);
    expect(result.body.ok).toBe(true);

    const stored = await userRow(user.id);
    expect(stored).toMatchObject({
      firstName: "Carla",
      lastName: "Núñez",
      phone: "+56987654321",
      address: "Los Leones 123, depto. 45\nProvidencia",
      emergencyContact: "Pedro Núñez",
      emergencyPhone: "+56223456789",
    });
    expect(stored.updatedAt.getTime()).toBeGreaterThan(past.getTime());

    const loaded = await settle<{ profile: ProfileDto }>(() =>
      profileLoader(routeArgs(requestAs(user.cookie, "/paciente/perfil"))),
    );
    expect(loaded.body.profile).toMatchObject({
      phone: "+56 9 8765 4321",
      emergencyPhone: "+56 2 2345 6789",
    });

    // Blank optional fields clear them.
    await save(user, { ...validProfile, phone: " ", address: "", emergencyContact: "", emergencyPhone: "" });
    expect(await userRow(user.id)).toMatchObject({
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
    });
  });

  it("refuses an invalid phone with the Spanish message and saves nothing", async () => {
    const user = await createTestUser({ firstName: "Diego" });
    const before = await userRow(user.id);
    const result = await save(user, { ...validProfile, firstName: "Cambiado", phone: "12345" });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: PHONE_ERROR,
      fieldErrors: { phone: [PHONE_ERROR] },
    });
    expect(PHONE_ERROR).toBe("Ingresa un teléfono chileno válido, por ejemplo +56 9 1234 5678.");

    const emergency = await save(user, { ...validProfile, emergencyPhone: "+1 415 555 0100" });
    expect(emergency.status).toBe(400);
    expect(emergency.body).toMatchObject({ fieldErrors: { emergencyPhone: [PHONE_ERROR] } });

    const bounded = await save(user, {
      ...validProfile,
      firstName: "",
      lastName: "x".repeat(81),
      address: "y".repeat(301),
      emergencyContact: "z".repeat(101),
    });
    expect(bounded.status).toBe(400);
    expect(bounded.body).toMatchObject({
      fieldErrors: {
        firstName: ["Ingresa tu nombre."],
        lastName: ["El apellido puede tener hasta 80 caracteres."],
        address: ["La dirección puede tener hasta 300 caracteres."],
        emergencyContact: ["El nombre del contacto puede tener hasta 100 caracteres."],
      },
    });

    const after = await userRow(user.id);
    expect(after).toEqual(before);
  });

  it("ignores every other field: the e-mail stays, no role is granted, nothing else moves", async () => {
    const user = await createTestUser({ firstName: "Fernanda" });
    const result = await save(user, {
      ...validProfile,
      email: "otro@example.com",
      role: "admin",
      roles: "admin",
      id: "someone-else",
      emailVerified: "false",
      twoFactorEnabled: "true",
      deactivatedAt: "2024-01-01T00:00:00Z",
      rut: "11.111.111-1",
      createdAt: "2000-01-01T00:00:00Z",
    });
    expect(result.status).toBe(200);
    const stored = await userRow(user.id);
    expect(stored).toMatchObject({
      id: user.id,
      email: user.email,
      emailVerified: true,
      twoFactorEnabled: false,
      deactivatedAt: null,
      rut: null,
      firstName: "Carla",
    });
    expect(stored.createdAt.getFullYear()).toBeGreaterThan(2000);
    expect(await activeRoleNames(await getDb(), user.id)).toEqual(["paciente"]);
  });

  it("only ever touches the session user's row: B's update never changes A", async () => {
    const a = await createTestUser({ firstName: "Alicia" });
    const b = await createTestUser({ firstName: "Benito" });
    const aBefore = await userRow(a.id);

    const result = await save(b, {
      ...validProfile,
      firstName: "Intruso",
      id: a.id,
      userId: a.id,
      email: a.email,
    });
    expect(result.status).toBe(200);

    expect(await userRow(a.id)).toEqual(aBefore);
    expect(await userRow(b.id)).toMatchObject({ firstName: "Intruso", email: b.email });
  });

  it("records the WhatsApp consent with its time, keeps that time while on and clears it when turned off", async () => {
    const user = await createTestUser({ firstName: "Wanda" });
    expect((await userRow(user.id)).whatsappOptInAt).toBeNull();
    const load = async () =>
      (
        await settle<{ profile: ProfileDto }>(() =>
          profileLoader(routeArgs(requestAs(user.cookie, "/paciente/perfil"))),
        )
      ).body.profile;

    const before = Date.now();
    expect((await save(user, { ...validProfile, whatsappOptIn: "on" })).status).toBe(200);
    const given = (await userRow(user.id)).whatsappOptInAt;
    expect(given).toBeInstanceOf(Date);
    expect(given!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(given!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await load()).toMatchObject({ whatsappOptIn: true });

    // Saving other changes with the box still checked keeps the time the consent was given.
    expect((await save(user, { ...validProfile, address: "Otra 1", whatsappOptIn: "on" })).status).toBe(200);
    expect((await userRow(user.id)).whatsappOptInAt).toEqual(given);

    // An unchecked box is not sent at all: the consent is withdrawn.
    expect((await save(user, validProfile)).status).toBe(200);
    expect((await userRow(user.id)).whatsappOptInAt).toBeNull();
    expect(await load()).toMatchObject({ whatsappOptIn: false });
  });

  it("refuses the WhatsApp consent without a phone and saves nothing", async () => {
    const user = await createTestUser({ firstName: "Sinfono" });
    const before = await userRow(user.id);
    const result = await save(user, { ...validProfile, phone: "", whatsappOptIn: "on" });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { whatsappOptIn: [WHATSAPP_NEEDS_PHONE] },
    });
    expect(await userRow(user.id)).toEqual(before);
  });

  it("changes only the session user's WhatsApp consent", async () => {
    const a = await createTestUser({ firstName: "Aurora" });
    const b = await createTestUser({ firstName: "Bruno" });
    expect((await save(a, { ...validProfile, whatsappOptIn: "on" })).status).toBe(200);
    const aBefore = await userRow(a.id);

    // B turns theirs on, then off, naming A's id everywhere it could be read from.
    for (const extra of [{ whatsappOptIn: "on" }, {}] as Record<string, string>[]) {
      const result = await save(b, { ...validProfile, ...extra, id: a.id, userId: a.id, email: a.email });
      expect(result.status).toBe(200);
    }
    expect(await userRow(a.id)).toEqual(aBefore);
    expect(aBefore.whatsappOptInAt).toBeInstanceOf(Date);
    expect((await userRow(b.id)).whatsappOptInAt).toBeNull();
  });

  it("requires a session", async () => {
    const result = await settle(() =>
      profileAction(routeArgs(postAs(undefined, "/paciente/perfil", validProfile))),
    );
    expect(result.status).toBe(302);
    expect(result.location).toBe("/auth?redirectTo=%2Fpaciente%2Fperfil");
  });
});

describe("Dashboard (/paciente)", () => {
  type DashboardData = {
    firstName: string;
    nextAppointment: {
      treatment: string;
      dentist: string;
      time: string;
      date: string;
      status: string;
    } | null;
    counts: { upcoming: number; history: number };
    completeness: { percent: number; missing: string[] };
  };

  async function dashboard(user: TestUser) {
    const result = await settle<DashboardData>(() =>
      dashboardLoader(routeArgs(requestAs(user.cookie, "/paciente"))),
    );
    expect(result.status).toBe(200);
    return result.body;
  }

  it("shows the next appointment, the counts and the profile's completeness of the caller only", async () => {
    const patient = await createTestUser({ firstName: "Gabriela" });
    const other = await createTestUser({ firstName: "Otro" });
    const dentist = await createTestUser({
      firstName: "Tomás",
      roles: ["dentista"],
      columns: { professionalTitle: "dr" },
    });

    const empty = await dashboard(patient);
    expect(empty).toMatchObject({
      firstName: "Gabriela",
      nextAppointment: null,
      counts: { upcoming: 0, history: 0 },
      completeness: { percent: 0 },
    });
    expect(empty.completeness.missing).toHaveLength(4);

    const db = await getDb();
    const [treatment] = await db.select().from(treatmentsCatalog).limit(1);
    if (!treatment) throw new Error("no treatments seeded");
    const day = 24 * 60 * 60 * 1000;
    const at = (offsetDays: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + offsetDays * day);
    const visit = { dentistId: dentist.id, slug: treatment.slug, minutes: 60 };
    await insertAppointments([
      { ...visit, patientId: patient.id, startsAt: at(-30), status: "completed" },
      { ...visit, patientId: patient.id, startsAt: at(10), status: "cancelled" },
      { ...visit, patientId: patient.id, startsAt: at(20), status: "scheduled" },
      { ...visit, patientId: other.id, startsAt: at(5), status: "scheduled" },
    ]);
    const saved = await save(patient, {
      firstName: patient.firstName,
      lastName: "Test",
      phone: "+56 9 1111 2222",
      address: "Av. Siempre Viva 742",
    });
    expect(saved.status).toBe(200);

    const filled = await dashboard(patient);
    expect(filled.counts).toEqual({ upcoming: 2, history: 1 });
    // The cancelled one is skipped; another patient's earlier appointment never shows.
    expect(filled.nextAppointment).toMatchObject({
      treatment: treatment.name,
      dentist: "Dr. Tomás Test",
      status: "scheduled",
    });
    expect(filled.nextAppointment!.time).toMatch(HH_MM);
    expect(filled.completeness).toEqual({
      percent: 50,
      missing: ["Contacto de emergencia", "Teléfono de emergencia"],
    });
  });
});
