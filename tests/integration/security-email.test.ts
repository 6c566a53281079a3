import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, users } from "~/db/schema";
import { clientForm, clientGet, uniqueEmail } from "../setup/clients";
import { CookieJar } from "../setup/cookie-jar";
import { startFakeSmtp, type FakeSmtp } from "../setup/fake-smtp";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

// The SMTP path end to end: sign-up → outbox row → delivery by the worker's handlers → link → verified e-mail.

/**
 * The app modules, imported only after SMTP_URL is set: env() is cached on first use, and some modules (the
 * logger) read it as soon as they are imported.
 */
async function importApp() {
  const [client, outboxModule, worker, session, authPage, betterAuthRoute] = await Promise.all([
    import("~/db/client.server"),
    import("~/features/outbox/outbox.server"),
    import("~/jobs/outbox-worker.server"),
    import("~/lib/auth/session.server"),
    import("~/routes/_auth/auth"),
    import("~/routes/api/auth"),
  ]);
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    deliverDue: outboxModule.deliverDue,
    outboxHandlers: worker.outboxHandlers,
    loadSessionUser: session.loadSessionUser,
    signInPageAction: authPage.action,
    betterAuthLoader: betterAuthRoute.loader,
  };
}

let smtp: FakeSmtp;
let app: Awaited<ReturnType<typeof importApp>>;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  process.env.SMTP_URL = `${smtp.url}?ignoreTLS=true`;
  app = await importApp();
  await app.getDb();
});
afterAll(async () => {
  await smtp?.close().catch(() => undefined);
  await app?.closeDb();
  delete process.env.SMTP_URL;
});

async function signUp(email: string, firstName: string) {
  const jar = new CookieJar();
  const result = await settle(() =>
    app.signInPageAction(
      routeArgs(
        clientForm("/auth", {
          intent: "signup",
          firstName,
          lastName: "Correo",
          email,
          password: "clave-correo-2026",
        }),
      ),
    ),
  );
  expect(result.status).toBe(302);
  jar.store(result.headers);
  const db = await app.getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email));
  expect(user).toBeDefined();
  return { jar, user: user! };
}

async function verificationRow(userId: string) {
  const db = await app.getDb();
  const rows = await db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), like(outbox.idempotencyKey, `verify:${userId}:%`)));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/**
 * Runs the worker's delivery until our row was attempted. Other files may share a PostgreSQL outbox, so our row is
 * made the oldest due one first (rows are delivered oldest first, ten at a time).
 */
async function deliverUntilAttempted(rowId: string) {
  const db = await app.getDb();
  await db
    .update(outbox)
    .set({ nextAttemptAt: new Date("2000-01-01T00:00:00Z") })
    .where(eq(outbox.id, rowId));
  for (let round = 0; round < 5; round++) {
    await app.deliverDue(db, app.outboxHandlers());
    const [row] = await db.select().from(outbox).where(eq(outbox.id, rowId));
    if (row && (row.status !== "pending" || row.attempts > 0)) return row;
  }
  throw new Error("the outbox row was never attempted");
}

describe("verification e-mail over SMTP", () => {
  it("is queued at sign-up, delivered in Spanish with the link, and the link verifies the address", async () => {
    const email = uniqueEmail("verifica");
    const { jar, user } = await signUp(email, "Inés");
    expect(user.emailVerified).toBe(false);

    const queued = await verificationRow(user.id);
    expect(queued).toMatchObject({ status: "pending", attempts: 0, payload: { to: email } });

    const delivered = await deliverUntilAttempted(queued.id);
    expect(delivered).toMatchObject({ status: "sent", deliveredVia: "smtp", lastError: null });
    expect(delivered.sentAt).toBeInstanceOf(Date);

    const mail = await smtp.waitForMail(email);
    expect(mail.to).toEqual([email]);
    expect(mail.from).toBe("no-responder@clinica.example");
    expect(mail.subject).toMatch(/^Confirma tu correo · /);
    expect(mail.text).toContain("Hola Inés, confirma tu correo");
    expect(mail.text).toContain("El enlace vence en 24 horas.");
    expect(mail.html).toContain('<html lang="es-CL">');
    const link = /Confirmar mi correo: (\S+)/.exec(mail.text)?.[1];
    expect(link).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=[\w.-]+&callbackURL=/);
    expect(mail.html).toContain(link!.replaceAll("&", "&amp;"));

    // The person opens the link in the browser they signed up with.
    const followed = await settle(() =>
      app.betterAuthLoader(routeArgs(clientGet(link!, { cookie: jar.header() }))),
    );
    expect(followed.status).toBe(302);
    jar.store(followed.headers);

    const db = await app.getDb();
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(after?.emailVerified).toBe(true);
    expect((await app.loadSessionUser(clientGet("/paciente", { cookie: jar.header() })))?.emailVerified).toBe(
      true,
    );
  });

  it("keeps the mail for a retry when the SMTP server is down", async () => {
    // The file's SMTP server is stopped for this test and started again on the same port (the app's SMTP_URL)
    // afterwards, so the other tests do not depend on running before this one.
    const down = smtp;
    await down.close();
    try {
      const email = uniqueEmail("caido");
      const { user } = await signUp(email, "Tomás");
      const queued = await verificationRow(user.id);

      const before = Date.now();
      const attempted = await deliverUntilAttempted(queued.id);
      expect(attempted.status).toBe("pending");
      expect(attempted.attempts).toBe(1);
      expect(attempted.lastError).toBeTruthy();
      expect(attempted.sentAt).toBeNull();
      expect(attempted.nextAttemptAt.getTime()).toBeGreaterThan(before);
      expect(attempted.payload).toEqual(queued.payload);
      expect(down.messages.some((mail) => mail.to.includes(email))).toBe(false);
      // Not picked up again before its time.
      await app.deliverDue(await app.getDb(), app.outboxHandlers());
      const [still] = await (await app.getDb()).select().from(outbox).where(eq(outbox.id, queued.id));
      expect(still?.attempts).toBe(1);
    } finally {
      smtp = await startFakeSmtp({ port: down.port });
    }
  });
});
