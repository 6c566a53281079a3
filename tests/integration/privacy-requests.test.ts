import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  auditLog,
  dataExports,
  jobRuns,
  outbox,
  privacyRequestEvents,
  privacyRequests,
  privacyRestrictions,
  privacyVerifications,
  users,
  whatsAppMessages,
} from "~/db/schema";
import { answerDueAt, dueDate } from "~/domain/privacy-clock";
import { PRIVACY_VERIFICATION_MESSAGES } from "~/domain/privacy-verification";
import { actOnRequest } from "~/features/privacy/request-decisions.server";
import { expireStaleRequests, sendPrivacyDigest, DIGEST_JOB } from "~/features/privacy/request-digest.server";
import { loadRightsRequestPanel, rightsRequestPanelAction } from "~/features/privacy/request-panel.server";
import {
  privacyQueue,
  privacyQueueCounts,
  privacyRequestDetail,
} from "~/features/privacy/request-queries.server";
import { confirmByLink } from "~/features/privacy/request-service.server";
import { clinicFacts } from "~/lib/base/env.server";
import type { AppError } from "~/lib/base/errors";
import { action as confirmAction } from "~/routes/_public/data-rights-confirm";
import { action as publicAction } from "~/routes/_public/data-rights-request";
import { action as detailAction, loader as detailLoader } from "~/routes/_admin/privacy-request-detail";
import { clientForm, postAs, randomIp, requestAs, uniqueEmail, uniquePhone } from "../setup/clients";
import { createStaffMember, createTestUser } from "../setup/factories";
import { mailTextToSend, placeholdersToSend } from "../setup/queued-secrets";
import { routeArgs, unwrap } from "../setup/route-args";
import { settle, thrownResponse } from "../setup/route-results";

afterAll(closeDb);

interface SentBody {
  ok: boolean;
  message?: string;
  data?: {
    step: string;
    via?: string;
    reference: string;
    requestId?: string | null;
    message?: string;
    error?: string;
  };
}

function publicFields(overrides: Record<string, string>) {
  return {
    submissionId: randomUUID(),
    right: "supresion",
    name: "Marta Fuentes",
    email: "",
    phone: "",
    rut: "",
    details: "",
    consent: "on",
    ...overrides,
  };
}

async function submitPublic(fields: Record<string, string>) {
  return unwrap<SentBody>(
    await publicAction(routeArgs(clientForm("/eliminar-datos", fields, { ip: randomIp() }))),
  );
}

async function requestByEmail(email: string) {
  const db = await getDb();
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.email, email));
  return row!;
}

async function eventKinds(requestId: string) {
  const db = await getDb();
  const rows = await db
    .select({ kind: privacyRequestEvents.kind })
    .from(privacyRequestEvents)
    .where(eq(privacyRequestEvents.requestId, requestId))
    .orderBy(privacyRequestEvents.at, privacyRequestEvents.seq);
  return rows.map((row) => row.kind);
}

async function outboxRowsAbout(requestId: string) {
  const db = await getDb();
  return db
    .select({ kind: outbox.kind, payload: outbox.payload, key: outbox.idempotencyKey })
    .from(outbox)
    .where(sql`${outbox.idempotencyKey} like ${`privacy-request:${requestId}:%`}`);
}

const linkIn = (text: string) => /https?:\/\/\S+\/eliminar-datos\/confirmar\/([\w-]+)/.exec(text)?.[1];

async function admin() {
  const user = await createStaffMember(["admin"]);
  return { user, actor: { id: user.id, roles: ["admin"], ip: "203.0.113.9" } };
}

describe("the public entry proves control before anything is processed", () => {
  it("a request for someone else's e-mail does nothing until the link is used; the answer is the same known or not", async () => {
    const db = await getDb();
    const owner = await createTestUser();
    const unknown = uniqueEmail("nadie");

    const known = await submitPublic(publicFields({ email: owner.email, blockingRequested: "on" }));
    const stranger = await submitPublic(publicFields({ email: unknown, blockingRequested: "on" }));
    expect(known.status).toBe(stranger.status);
    const strip = (body: SentBody) => ({ ...body, data: { ...body.data, reference: "" } });
    expect(strip(known.body)).toEqual(strip(stranger.body));
    expect(known.body.data).toMatchObject({ step: "sent", via: "email", requestId: null });

    const ownerRequest = await requestByEmail(owner.email.toLowerCase());
    const strangerRequest = await requestByEmail(unknown);
    for (const row of [ownerRequest, strangerRequest]) {
      // Unverified: no account looked up, no clock, no blocking, no acknowledgment.
      expect(row).toMatchObject({ status: "unverified", userId: null, receivedAt: null, dueAt: null });
      expect(await eventKinds(row.id)).toEqual(["created", "verification_sent"]);
      expect(await outboxRowsAbout(row.id)).toEqual([]);
      expect(
        await db.select().from(privacyRestrictions).where(eq(privacyRestrictions.requestId, row.id)),
      ).toEqual([]);
    }
    // Only hashes are stored.
    const [verification] = await db
      .select()
      .from(privacyVerifications)
      .where(eq(privacyVerifications.requestId, ownerRequest.id));
    const text = await mailTextToSend(owner.email.toLowerCase(), "Confirma tu solicitud");
    const token = linkIn(text)!;
    expect(token).toBeTruthy();
    expect(verification!.secretHash).not.toContain(token);
    expect(
      JSON.stringify(
        await db
          .select()
          .from(outbox)
          .where(sql`${outbox.payload}->>'to' = ${owner.email.toLowerCase()}`),
      ),
    ).not.toContain(token);

    // The owner opens the link: received, clock from the moment the form was sent, account found, blocked.
    const confirmed = unwrap<SentBody>(
      await confirmAction(routeArgs(clientForm(`/eliminar-datos/confirmar/${token}`, {}), { token })),
    );
    expect(confirmed).toMatchObject({ status: 200, body: { ok: true } });
    const received = await requestByEmail(owner.email.toLowerCase());
    expect(received).toMatchObject({ status: "received", verifiedVia: "email", userId: owner.id });
    expect(received.receivedAt!.toISOString()).toBe(received.createdAt.toISOString());
    expect(received.dueAt!.toISOString()).toBe(answerDueAt(received.createdAt).toISOString());
    expect(await eventKinds(received.id)).toEqual([
      "created",
      "verification_sent",
      "verified",
      "blocking_applied",
      "message_sent",
      "acknowledged",
    ]);
    const ack = await outboxRowsAbout(received.id);
    expect(ack).toHaveLength(1);
    expect(String(ack[0]!.payload.text)).toContain(`a más tardar el`);
    expect(String(ack[0]!.payload.text)).toContain("bloqueamos tus datos");
    const blocks = await db
      .select()
      .from(privacyRestrictions)
      .where(eq(privacyRestrictions.requestId, received.id));
    expect(blocks.map((row) => row.kind)).toEqual(expect.arrayContaining(["bloqueo"]));
    const [auditRow] = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "privacy.request_received"),
          sql`${auditLog.details}->>'requestId' = ${received.id}`,
        ),
      );
    expect(auditRow).toMatchObject({ targetUserId: owner.id });

    // Used once: the same link again is refused, and nothing changes.
    const reused = await settle(() =>
      confirmAction(routeArgs(clientForm(`/eliminar-datos/confirmar/${token}`, {}), { token })),
    );
    expect(reused.status).toBe(404);
    expect(reused.body).toMatchObject({ ok: false, message: PRIVACY_VERIFICATION_MESSAGES.linkInvalid });
    // The stranger's request is still untouched.
    expect(await requestByEmail(unknown)).toMatchObject({ status: "unverified" });
  });

  it("an expired link confirms nothing; a stale unconfirmed request expires", async () => {
    const email = uniqueEmail("tarde");
    await submitPublic(publicFields({ email, right: "acceso" }));
    const token = linkIn(await mailTextToSend(email, "Confirma tu solicitud"))!;
    const later = new Date(Date.now() + 25 * 60 * 60_000);
    await expect(confirmByLink(await getDb(), token, randomIp(), later)).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: PRIVACY_VERIFICATION_MESSAGES.linkInvalid,
    } satisfies Partial<AppError>);
    expect(await requestByEmail(email)).toMatchObject({ status: "unverified" });
    await expireStaleRequests(await getDb(), new Date(Date.now() + 49 * 60 * 60_000));
    const row = await requestByEmail(email);
    expect(row.status).toBe("expired");
    expect(await eventKinds(row.id)).toContain("expired");
  });

  it("the WhatsApp code: wrong codes count, five burn it, the right one works once", async () => {
    const db = await getDb();
    const phone = uniquePhone();
    const sent = await submitPublic(publicFields({ phone, right: "oposicion" }));
    expect(sent.body.data).toMatchObject({ step: "sent", via: "whatsapp" });
    const requestId = sent.body.data!.requestId!;
    const [message] = await db
      .select({ id: whatsAppMessages.id, placeholders: whatsAppMessages.templatePlaceholders })
      .from(whatsAppMessages)
      .where(
        and(
          eq(whatsAppMessages.purpose, "privacy-request"),
          eq(whatsAppMessages.templateName, "codigo_solicitud_datos"),
        ),
      )
      .orderBy(desc(whatsAppMessages.createdAt))
      .limit(1);
    // Stored redacted; only the outbox's sealed secret holds the code.
    expect(message!.placeholders).toEqual(["[oculto]"]);
    const [code] = await placeholdersToSend(message!.id);
    const wrong = code === "000000" ? "111111" : "000000";
    const post = (value: string) =>
      settle<SentBody>(() =>
        publicAction(
          routeArgs(
            clientForm(
              "/eliminar-datos",
              { intent: "codigo", request: requestId, code: value },
              { ip: randomIp() },
            ),
          ),
        ),
      );

    const first = await post(wrong);
    expect(first.status).toBe(400);
    expect(first.body.data).toMatchObject({
      step: "sent",
      requestId,
      error: PRIVACY_VERIFICATION_MESSAGES.wrong,
    });
    expect((await post("12")).body.data?.error).toBe("Ingresa el código de 6 dígitos.");
    for (let attempt = 2; attempt <= 5; attempt += 1) await post(wrong);
    const burnt = await post(code!);
    expect(burnt.body.data?.error).toBe(PRIVACY_VERIFICATION_MESSAGES.exhausted);
    const [burntRow] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, requestId));
    expect(burntRow).toMatchObject({ status: "unverified", receivedAt: null });

    // A new request gets a new code; the right one confirms, once.
    const again = await submitPublic(publicFields({ phone, right: "oposicion" }));
    const againId = again.body.data!.requestId!;
    const [second] = await db
      .select({ id: whatsAppMessages.id })
      .from(whatsAppMessages)
      .where(
        and(
          eq(whatsAppMessages.purpose, "privacy-request"),
          eq(whatsAppMessages.templateName, "codigo_solicitud_datos"),
        ),
      )
      .orderBy(desc(whatsAppMessages.createdAt))
      .limit(1);
    const [secondCode] = await placeholdersToSend(second!.id);
    const postAgain = (value: string) =>
      settle<SentBody>(() =>
        publicAction(
          routeArgs(
            clientForm(
              "/eliminar-datos",
              { intent: "codigo", request: againId, code: value },
              { ip: randomIp() },
            ),
          ),
        ),
      );
    const ok = await postAgain(secondCode!);
    expect(ok.body).toMatchObject({ ok: true, data: { step: "confirmed" } });
    const [confirmed] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, againId));
    expect(confirmed).toMatchObject({ status: "received", verifiedVia: "whatsapp" });
    expect((await postAgain(secondCode!)).body.data?.error).toBe(PRIVACY_VERIFICATION_MESSAGES.expired);
    // Only a phone: the acknowledgment goes by WhatsApp.
    expect((await outboxRowsAbout(againId)).map((row) => row.kind)).toEqual(["whatsapp"]);
  });
});

describe("account holders (Mis Datos)", () => {
  it("asks from the session: received at once, listed with its due date; erasure needs its confirmation", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const refused = await rightsRequestPanelAction(db, user, { right: "supresion", details: "" });
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { erasureUnderstood: [expect.stringContaining("Confirma")] },
    });
    const correction = await rightsRequestPanelAction(db, user, { right: "rectificacion", details: "" });
    expect(correction).toMatchObject({ ok: false, fieldErrors: { details: [expect.any(String)] } });
    expect(await db.select().from(privacyRequests).where(eq(privacyRequests.userId, user.id))).toEqual([]);

    const ok = await rightsRequestPanelAction(db, user, {
      right: "rectificacion",
      details: "Mi e-mail correcto es otro@correo.example",
      // An id from the form is ignored: the person is the session's user.
      userId: randomUUID(),
    });
    expect(ok.ok).toBe(true);
    const panel = await loadRightsRequestPanel(db, user);
    expect(panel.requests).toHaveLength(1);
    expect(panel.requests[0]).toMatchObject({
      rightLabel: "Rectificación",
      statusLabel: "Recibida",
      clock: { daysLeft: 30, overdue: false },
    });
    const stranger = await createTestUser();
    expect((await loadRightsRequestPanel(db, stranger)).requests).toEqual([]);
  });
});

describe("a request's history", () => {
  it("keeps the order its steps were written in when their instants tie (a clock that moves in milliseconds)", async () => {
    const db = await getDb();
    const { row } = await accountRequest("bloqueo");
    const { actor } = await admin();
    const tie = new Date(Date.now() + 60_000);
    // Written one after another with one instant: the history must read them back in that order, not by their
    // random ids (eight steps: a chance of 1 in 40,320 that random ids give this order).
    const written: string[] = [];
    for (let step = 0; step < 8; step += 1) {
      const [event] = await db
        .insert(privacyRequestEvents)
        .values({ requestId: row.id, kind: "note", text: `paso ${step}`, at: tie })
        .returning({ id: privacyRequestEvents.id });
      written.push(event!.id);
    }
    const detail = await privacyRequestDetail(db, actor, row.id);
    const tied = detail.events.filter((event) => event.atIso === tie.toISOString());
    expect(tied.map((event) => event.id)).toEqual(written);
  });
});

async function accountRequest(right: string, extra: Record<string, string> = {}) {
  const db = await getDb();
  const user = await createTestUser();
  const result = await rightsRequestPanelAction(db, user, {
    right,
    details: "Detalle de la solicitud",
    ...extra,
  });
  if (!result.ok) throw new Error(result.message);
  const [created] = await db.select().from(privacyRequests).where(eq(privacyRequests.userId, user.id));
  return { user, row: created! };
}

describe("the clinic's decisions", () => {
  it("a refusal states the reason and the right to complain to the Agency within 30 business days; blocking ends", async () => {
    const db = await getDb();
    const { actor } = await admin();
    const { user, row } = await accountRequest("oposicion", { blockingRequested: "on" });
    const inForce = () =>
      db
        .select()
        .from(privacyRestrictions)
        .where(and(eq(privacyRestrictions.requestId, row.id), sql`${privacyRestrictions.endsAt} is null`));
    expect((await inForce()).map((r) => r.kind)).toContain("bloqueo");

    await actOnRequest(db, actor, row.id, {
      intent: "refuse",
      reason: "Los datos se usan para una obligación legal.",
    });
    const text = await mailTextToSend(user.email.toLowerCase(), "Respuesta a tu solicitud");
    expect(text).toContain("Motivo: Los datos se usan para una obligación legal.");
    expect(text).toContain("Agencia de Protección de Datos Personales dentro de 30 días hábiles");
    expect(text).toContain("artículo 11");
    expect(await inForce()).toEqual([]);
    const [after] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, row.id));
    expect(after).toMatchObject({ status: "refused", decidedBy: actor.id });
    expect(await eventKinds(row.id)).toEqual(
      expect.arrayContaining(["blocking_lifted", "refused", "message_sent"]),
    );
    // A closed request takes no other decision.
    await expect(actOnRequest(db, actor, row.id, { intent: "approve", text: "" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("extends once, with the reason sent to the person and the due date moved 30 calendar days", async () => {
    const db = await getDb();
    const { actor } = await admin();
    const { user, row } = await accountRequest("bloqueo");
    await actOnRequest(db, actor, row.id, {
      intent: "extend",
      reason: "Debemos revisar datos en Dentalink.",
    });
    const [extended] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, row.id));
    expect(extended!.extendedAt).not.toBeNull();
    expect(extended!.status).toBe("in_progress");
    const [a, b] = [dueDate(row.dueAt!), dueDate(extended!.dueAt!)];
    expect((Date.parse(b) - Date.parse(a)) / 86_400_000).toBe(30);
    expect(await mailTextToSend(user.email.toLowerCase(), "Prórroga del plazo")).toContain(
      "Motivo: Debemos revisar datos en Dentalink.",
    );
    await expect(
      actOnRequest(db, actor, row.id, { intent: "extend", reason: "Otra vez, por favor." }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("una vez") });
    // Approving a blocking request puts a 'bloqueo' with no end in force.
    await actOnRequest(db, actor, row.id, { intent: "approve", text: "" });
    const blocks = await db
      .select()
      .from(privacyRestrictions)
      .where(eq(privacyRestrictions.requestId, row.id));
    expect(blocks.filter((r) => r.kind === "bloqueo" && r.endsAt === null).length).toBeGreaterThan(0);
  });

  it("an approved erasure erases the account and tells the person what was kept, why and until when", async () => {
    const db = await getDb();
    const { actor } = await admin();
    const { user, row } = await accountRequest("supresion", { erasureUnderstood: "on" });
    await actOnRequest(db, actor, row.id, { intent: "approve", text: "" });
    const [account] = await db.select({ erasedAt: users.erasedAt }).from(users).where(eq(users.id, user.id));
    expect(account!.erasedAt).not.toBeNull();
    const [closing] = (await outboxRowsAbout(row.id)).filter((r) => r.key.endsWith(":decided"));
    const text = String(closing!.payload.text);
    expect(text).toContain("Aprobamos tu solicitud de supresión");
    expect(text).toMatch(
      /Solicitudes de derechos \(Ley 21\.719\) \(\d+ registros?\): .+Se conservan hasta el/,
    );
    const [after] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, row.id));
    expect(after!.status).toBe("approved");
    expect(after!.outcome).toHaveProperty("retained");
  });

  it("an approved access request of an account holder queues their export, downloaded in Mis Datos", async () => {
    const db = await getDb();
    const { actor } = await admin();
    const owner = await createTestUser();
    await submitPublic(publicFields({ right: "acceso", email: owner.email }));
    const token = linkIn(await mailTextToSend(owner.email.toLowerCase(), "Confirma tu solicitud"))!;
    await confirmByLink(db, token, randomIp());
    const row = await requestByEmail(owner.email.toLowerCase());
    expect(row).toMatchObject({ status: "received", userId: owner.id });

    await actOnRequest(db, actor, row.id, { intent: "approve", text: "" });
    const exports = await db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    expect(exports.map((e) => e.status)).toEqual(["queued"]);
    const [closing] = (await outboxRowsAbout(row.id)).filter((r) => r.key.endsWith(":decided"));
    expect(String(closing!.payload.text)).toContain("desde Mis Datos");
  });

  it("an asesor or a patient cannot read or act on the queue", async () => {
    const db = await getDb();
    const { row } = await accountRequest("oposicion");
    const asesor = await createStaffMember(["asesor"]);
    const patient = await createTestUser();
    for (const who of [asesor, patient]) {
      const read = await thrownResponse(() =>
        detailLoader(routeArgs(requestAs(who.cookie, `/admin/privacidad/${row.id}`), { id: row.id })),
      );
      expect(read.status).toBe(403);
      const act = await thrownResponse(() =>
        detailAction(
          routeArgs(
            postAs(who.cookie, `/admin/privacidad/${row.id}`, {
              intent: "refuse",
              reason: "No corresponde, sin motivo.",
            }),
            {
              id: row.id,
            },
          ),
        ),
      );
      expect(act.status).toBe(403);
    }
    await expect(
      actOnRequest(db, { id: asesor.id, roles: ["asesor"], ip: "x" }, row.id, {
        intent: "note",
        text: "Intento de nota.",
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      privacyQueue(db, { id: asesor.id, roles: ["asesor"], ip: "x" }, new URLSearchParams()),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const [unchanged] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, row.id));
    expect(unchanged!.status).toBe("received");

    // The admin reads it, with the data found, and acts through the route.
    const { user: adminUser } = await admin();
    const detail = await detailLoader(
      routeArgs(requestAs(adminUser.cookie, `/admin/privacidad/${row.id}`), { id: row.id }),
    );
    expect(detail).toMatchObject({
      identity: "Verificada: sesión iniciada en su cuenta",
      actions: { decide: true, extend: true },
    });
    expect((detail as { dataFound: Array<{ table: string }> }).dataFound.map((d) => d.table)).toContain(
      "accounts",
    );
    const noted = unwrap<{ ok: boolean }>(
      await detailAction(
        routeArgs(
          postAs(adminUser.cookie, `/admin/privacidad/${row.id}`, {
            intent: "note",
            text: "Llamamos a la persona.",
          }),
          {
            id: row.id,
          },
        ),
      ),
    );
    expect(noted.body.ok).toBe(true);
  });
});

describe("the queue's clock and the privacy contact's daily e-mail", () => {
  it("counts overdue and due-this-week requests and claims the digest's date once", async () => {
    const db = await getDb();
    const now = new Date();
    const base = { channel: "clinica", name: "Reloj", details: "", status: "received" } as const;
    const overdueId = randomUUID();
    const soonId = randomUUID();
    await db.insert(privacyRequests).values([
      {
        ...base,
        id: overdueId,
        submissionId: randomUUID(),
        right: "acceso",
        email: uniqueEmail("vencida"),
        receivedAt: new Date(now.getTime() - 40 * 86_400_000),
        dueAt: new Date(now.getTime() - 86_400_000),
      },
      {
        ...base,
        id: soonId,
        submissionId: randomUUID(),
        right: "supresion",
        email: uniqueEmail("pronto"),
        receivedAt: new Date(now.getTime() - 27 * 86_400_000),
        dueAt: new Date(now.getTime() + 2 * 86_400_000),
      },
    ]);
    const counts = await privacyQueueCounts(db, now);
    expect(counts.overdue).toBeGreaterThanOrEqual(1);
    expect(counts.dueThisWeek).toBeGreaterThanOrEqual(1);
    const { actor } = await admin();
    const queue = await privacyQueue(db, actor, new URLSearchParams("plazo=vencidas"), now);
    expect(queue.requests.map((r) => r.id)).toContain(overdueId);
    expect(queue.requests.map((r) => r.id)).not.toContain(soonId);
    expect(queue.requests.find((r) => r.id === overdueId)?.clock).toMatchObject({ overdue: true });

    // Two instances running at once: one e-mail.
    const outcomes = await Promise.all([sendPrivacyDigest(db, now), sendPrivacyDigest(db, now)]);
    expect(outcomes.toSorted()).toEqual(["already_sent", "sent"]);
    expect(await sendPrivacyDigest(db, now)).toBe("already_sent");
    const claims = await db.select().from(jobRuns).where(eq(jobRuns.job, DIGEST_JOB));
    expect(claims).toHaveLength(1);
    const mails = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(
        inArray(
          outbox.idempotencyKey,
          claims.map((claim) => `${DIGEST_JOB}:${claim.period}`),
        ),
      );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.payload.to).toBe(clinicFacts().privacyEmail);
    expect(String(mails[0]!.payload.text)).toContain(overdueId.slice(0, 8).toUpperCase());
  });
});
