import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { auditLog, callbackRequests, sessions, users } from "~/db/schema";
import { activeRoleNames } from "~/db/accounts.server";
import { loadSessionUser } from "~/lib/auth/session.server";
import { loader as layoutLoader } from "~/routes/_admin/admin-layout";
import { loader as auditLoader } from "~/routes/_admin/audit-log";
import { action as requestsAction, loader as requestsLoader } from "~/routes/_admin/requests";
import { action as detailAction, loader as detailLoader } from "~/routes/_admin/user-detail";
import UsersPage, { loader as usersLoader } from "~/routes/_admin/users";
import { thrownResponse } from "../setup/route-results";
import { routeArgs, unwrap } from "../setup/route-args";
import { postAs, requestAs } from "../setup/clients";
import { createTestUser, signInCookie, type TestUser } from "../setup/users";

afterAll(closeDb);

type ActionResult = { ok: boolean; message: string };
type UsersData = Awaited<ReturnType<typeof usersLoader>>;
type DetailData = Awaited<ReturnType<typeof detailLoader>>;
type RequestsData = Awaited<ReturnType<typeof requestsLoader>>;
type AuditData = Awaited<ReturnType<typeof auditLoader>>;

function detailPath(userId: string) {
  return `/admin/usuarios/${userId}`;
}

async function userAction(actor: TestUser, targetId: string, fields: Record<string, string>) {
  return unwrap<ActionResult>(
    await detailAction(routeArgs(postAs(actor.cookie, detailPath(targetId), fields), { userId: targetId })),
  );
}

async function auditRowsFor(targetUserId: string) {
  const db = await getDb();
  return db
    .select()
    .from(auditLog)
    .where(eq(auditLog.targetUserId, targetUserId))
    .orderBy(desc(auditLog.createdAt));
}

async function sessionCount(userId: string) {
  const db = await getDb();
  return db.$count(sessions, eq(sessions.userId, userId));
}

let admin: TestUser;
let superAdmin: TestUser;
let patient: TestUser;

beforeAll(async () => {
  [admin, superAdmin, patient] = await Promise.all([
    createTestUser({ roles: ["admin"], firstName: "Adela" }),
    createTestUser({ roles: ["super_admin"], firstName: "Susana" }),
    createTestUser({ firstName: "Pablo" }),
  ]);
});

describe("admin access", () => {
  it("answers 403 to a patient on every admin loader and action", async () => {
    const target = patient.id;
    const calls: Array<() => Promise<unknown>> = [
      () => layoutLoader(routeArgs(requestAs(patient.cookie, "/admin"))),
      () => usersLoader(routeArgs(requestAs(patient.cookie, "/admin?q=a"))),
      () => detailLoader(routeArgs(requestAs(patient.cookie, detailPath(target)), { userId: target })),
      () =>
        detailAction(
          routeArgs(postAs(patient.cookie, detailPath(target), { intent: "grant", role: "admin" }), {
            userId: target,
          }),
        ),
      () => requestsLoader(routeArgs(requestAs(patient.cookie, "/admin/solicitudes"))),
      () =>
        requestsAction(
          routeArgs(
            postAs(patient.cookie, "/admin/solicitudes", {
              kind: "callback",
              requestId: randomUUID(),
              status: "done",
            }),
          ),
        ),
      () => auditLoader(routeArgs(requestAs(patient.cookie, "/admin/auditoria"))),
    ];
    for (const call of calls) expect((await thrownResponse(call)).status).toBe(403);
    // The grant attempt above changed nothing.
    expect(await activeRoleNames(await getDb(), patient.id)).toEqual(["paciente"]);
    expect(await auditRowsFor(patient.id)).toHaveLength(0);
  });

  it("answers 403 to an asesor too (staff, but not an administrator)", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    expect(
      (await thrownResponse(() => usersLoader(routeArgs(requestAs(asesor.cookie, "/admin"))))).status,
    ).toBe(403);
  });

  it("sends an anonymous visitor to /auth (302) from every admin loader and action", async () => {
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => layoutLoader(routeArgs(requestAs(undefined, "/admin"))), "/admin"],
      [() => usersLoader(routeArgs(requestAs(undefined, "/admin?q=x"))), "/admin?q=x"],
      [
        () => detailLoader(routeArgs(requestAs(undefined, detailPath(admin.id)), { userId: admin.id })),
        detailPath(admin.id),
      ],
      [
        () =>
          detailAction(
            routeArgs(postAs(undefined, detailPath(admin.id), { intent: "deactivate" }), {
              userId: admin.id,
            }),
          ),
        detailPath(admin.id),
      ],
      [() => requestsLoader(routeArgs(requestAs(undefined, "/admin/solicitudes"))), "/admin/solicitudes"],
      [
        () => requestsAction(routeArgs(postAs(undefined, "/admin/solicitudes", { kind: "callback" }))),
        "/admin/solicitudes",
      ],
      [() => auditLoader(routeArgs(requestAs(undefined, "/admin/auditoria"))), "/admin/auditoria"],
    ];
    for (const [call, back] of calls) {
      expect(await thrownResponse(call)).toEqual({
        status: 302,
        location: `/auth?redirectTo=${encodeURIComponent(back)}`,
      });
    }
  });
});

describe("/admin users list", () => {
  it("finds users by first name, last name or e-mail, case-insensitively, with their roles in Spanish", async () => {
    const token = randomUUID().slice(0, 8);
    const found = await createTestUser({
      roles: ["dentista"],
      firstName: `Zoe${token}`,
      email: `zoe-${token}@example.com`,
    });
    const byName = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=ZOE${token.toUpperCase()}`)),
    )) as UsersData;
    expect(byName.total).toBe(1);
    expect(byName.users[0]).toEqual({
      id: found.id,
      name: `Zoe${token} Test`,
      email: `zoe-${token}@example.com`,
      roles: [{ name: "dentista", label: "Dentista" }],
      emailVerified: true,
      twoFactorEnabled: false,
      active: true,
      created: { iso: expect.any(String), label: expect.stringMatching(/^\d{2}-\d{2}-\d{4}/) },
    });
    const byEmail = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=zoe-${token}@EXAMPLE`)),
    )) as UsersData;
    expect(byEmail.users.map((user) => user.id)).toEqual([found.id]);
    const byFullName = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=${encodeURIComponent(`zoe${token} test`)}`)),
    )) as UsersData;
    expect(byFullName.users.map((user) => user.id)).toEqual([found.id]);
    // The admin's own row shows "Administrador".
    const self = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=${admin.email}`)),
    )) as UsersData;
    expect(self.users[0]?.roles).toEqual([{ name: "admin", label: "Administrador" }]);
  });

  it("treats % and _ as literal characters, not wildcards", async () => {
    for (const q of ["%", "_", "%25", "\\"]) {
      const result = (await usersLoader(
        routeArgs(requestAs(admin.cookie, `/admin?q=${encodeURIComponent(q)}`)),
      )) as UsersData;
      expect({ q, total: result.total }).toEqual({ q, total: 0 });
    }
  });

  it("pages 50 users at a time and clamps a page past the end", async () => {
    const db = await getDb();
    const token = randomUUID().slice(0, 8);
    await db.insert(users).values(
      Array.from({ length: 55 }, (_, index) => ({
        id: `bulk-${token}-${index}`,
        firstName: "Masivo",
        lastName: `Lote${token}`,
        email: `bulk-${token}-${index}@example.com`,
      })),
    );
    const first = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=lote${token}`)),
    )) as UsersData;
    expect(first).toMatchObject({ total: 55, page: 1, pageCount: 2 });
    expect(first.users).toHaveLength(50);
    const second = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=lote${token}&pagina=2`)),
    )) as UsersData;
    expect(second.users).toHaveLength(5);
    expect(new Set([...first.users, ...second.users].map((user) => user.id)).size).toBe(55);
    const past = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=lote${token}&pagina=99`)),
    )) as UsersData;
    expect(past.page).toBe(2);
    const junk = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=lote${token}&pagina=abc`)),
    )) as UsersData;
    expect(junk.page).toBe(1);
  });

  it("returns a script tag in the search box as text and renders it escaped", async () => {
    const q = `<script>alert("x")</script>`;
    const loaderData = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=${encodeURIComponent(q)}`)),
    )) as UsersData;
    expect(loaderData).toMatchObject({ query: q, total: 0, users: [] });
    const Stub = createRoutesStub([{ id: "users", path: "/admin", Component: UsersPage as never }]);
    const html = renderToString(
      createElement(Stub, {
        initialEntries: [`/admin?q=${encodeURIComponent(q)}`],
        hydrationData: { loaderData: { users: loaderData } },
      }),
    );
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert");
  });
});

describe("/admin/usuarios/:userId", () => {
  it("shows a user's data as a DTO and answers 404 for an unknown id", async () => {
    const target = await createTestUser({ firstName: "Teresa" });
    const detail = (await detailLoader(
      routeArgs(requestAs(admin.cookie, detailPath(target.id)), { userId: target.id }),
    )) as DetailData;
    expect(detail.user).toMatchObject({
      id: target.id,
      name: "Teresa Test",
      email: target.email,
      active: true,
    });
    // Sign-up signs in too, so createTestUser leaves two sessions.
    expect(detail.user.activeSessions).toBe(await sessionCount(target.id));
    expect(detail.user.activeSessions).toBeGreaterThan(0);
    expect(detail.roles).toEqual([{ name: "paciente", label: "Paciente" }]);
    expect(detail).not.toHaveProperty("user.password");
    expect(detail.isSelf).toBe(false);
    expect(detail.grantable.find((role) => role.name === "super_admin")).toMatchObject({ allowed: false });

    const missing = "no-such-user";
    expect(
      (
        await thrownResponse(() =>
          detailLoader(routeArgs(requestAs(admin.cookie, detailPath(missing)), { userId: missing })),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await thrownResponse(() =>
          detailAction(
            routeArgs(postAs(admin.cookie, detailPath(missing), { intent: "grant", role: "asesor" }), {
              userId: missing,
            }),
          ),
        )
      ).status,
    ).toBe(404);
  });

  it("grants asesor and writes the audit row in the same change", async () => {
    const target = await createTestUser();
    const { status, body } = await userAction(admin, target.id, { intent: "grant", role: "asesor" });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, message: "Se otorgó el rol Asesor a Prueba Test." });
    expect((await activeRoleNames(await getDb(), target.id)).toSorted()).toEqual(["asesor", "paciente"]);
    const rows = await auditRowsFor(target.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: admin.id,
      actorRoles: "admin",
      action: "role.grant",
      targetUserId: target.id,
      details: { role: "asesor" },
      ip: "203.0.113.7",
    });

    // Granting it again is a conflict and writes nothing.
    const again = await userAction(admin, target.id, { intent: "grant", role: "asesor" });
    expect(again.status).toBe(409);
    expect(await auditRowsFor(target.id)).toHaveLength(1);
  });

  it("sets a dentist's title (issue 24): shown on the page, used by the portal, audited; refused for a non-dentist", async () => {
    const dentist = await createTestUser({ roles: ["dentista"], firstName: "Fernanda" });
    const load = async () =>
      (await detailLoader(
        routeArgs(requestAs(admin.cookie, detailPath(dentist.id)), { userId: dentist.id }),
      )) as DetailData;
    // No title recorded: named without one.
    expect((await load()).user).toMatchObject({ professionalTitle: "", dentistName: "Fernanda Test" });

    const { status, body } = await userAction(admin, dentist.id, { intent: "title", title: "dra" });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, message: "Título guardado. El portal lo nombra «Dra. Fernanda Test»." });
    expect((await load()).user).toMatchObject({
      professionalTitle: "dra",
      dentistName: "Dra. Fernanda Test",
    });
    const rows = await auditRowsFor(dentist.id);
    expect(rows.map((row) => [row.action, row.details])).toEqual([["user.title", { from: null, to: "dra" }]]);

    // The same title again changes nothing; "" removes it; an unknown value is refused.
    expect((await userAction(admin, dentist.id, { intent: "title", title: "dra" })).body.message).toMatch(
      /^Sin cambios/,
    );
    expect((await userAction(admin, dentist.id, { intent: "title", title: "" })).status).toBe(200);
    expect((await load()).user.dentistName).toBe("Fernanda Test");
    expect((await userAction(admin, dentist.id, { intent: "title", title: "Dr." })).status).toBe(400);
    expect((await userAction(admin, patient.id, { intent: "title", title: "dr" })).status).toBe(409);
    expect(await auditRowsFor(dentist.id)).toHaveLength(2);
  });

  it("revokes a role and audits it", async () => {
    const target = await createTestUser({ roles: ["paciente", "dentista"] });
    const { status, body } = await userAction(admin, target.id, { intent: "revoke", role: "dentista" });
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(await activeRoleNames(await getDb(), target.id)).toEqual(["paciente"]);
    const rows = await auditRowsFor(target.id);
    expect(rows.map((row) => [row.action, row.details])).toEqual([["role.revoke", { role: "dentista" }]]);
    // Revoking a role the user does not have is refused.
    expect((await userAction(admin, target.id, { intent: "revoke", role: "dentista" })).status).toBe(409);
  });

  it("deactivates an account, signs it out at once, refuses new sign-ins, and reactivates it", async () => {
    const target = await createTestUser();
    const db = await getDb();
    expect(await loadSessionUser(requestAs(target.cookie, "/paciente"))).not.toBeNull();
    const before = await sessionCount(target.id);

    const { status, body } = await userAction(admin, target.id, { intent: "deactivate" });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      message: `Cuenta de Prueba Test desactivada. Se cerraron ${before} sesiones.`,
    });
    expect(await loadSessionUser(requestAs(target.cookie, "/paciente"))).toBeNull();
    expect(await sessionCount(target.id)).toBe(0);
    const [row] = await db
      .select({ deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, target.id));
    expect(row?.deactivatedAt).toBeInstanceOf(Date);
    await expect(signInCookie(target.email, target.password)).rejects.toThrow(/sign-in failed/);
    const audit = await auditRowsFor(target.id);
    expect(audit[0]).toMatchObject({
      action: "user.deactivate",
      actorId: admin.id,
      details: { sessionsRevoked: before },
    });

    const list = (await usersLoader(
      routeArgs(requestAs(admin.cookie, `/admin?q=${target.email}`)),
    )) as UsersData;
    expect(list.users[0]?.active).toBe(false);

    const reactivated = await userAction(admin, target.id, { intent: "reactivate" });
    expect(reactivated.status).toBe(200);
    const [after] = await db
      .select({ deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, target.id));
    expect(after?.deactivatedAt).toBeNull();
    expect(await signInCookie(target.email, target.password)).toContain("session_token=");
    expect((await auditRowsFor(target.id))[0]).toMatchObject({ action: "user.reactivate" });
  });

  it("refuses self-deactivation and revoking one's own admin role (lockout), changing nothing", async () => {
    const selfAdmin = await createTestUser({ roles: ["admin"] });
    const deactivate = await userAction(selfAdmin, selfAdmin.id, { intent: "deactivate" });
    expect(deactivate.status).toBe(403);
    expect(deactivate.body).toEqual({
      ok: false,
      code: "FORBIDDEN",
      message: "No puedes desactivar tu propia cuenta.",
    });
    const revoke = await userAction(selfAdmin, selfAdmin.id, { intent: "revoke", role: "admin" });
    expect(revoke.status).toBe(403);
    const db = await getDb();
    const [row] = await db
      .select({ deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(users.id, selfAdmin.id));
    expect(row?.deactivatedAt).toBeNull();
    expect(await activeRoleNames(db, selfAdmin.id)).toEqual(["admin"]);
    expect(await loadSessionUser(requestAs(selfAdmin.cookie, "/admin"))).not.toBeNull();
    expect(await auditRowsFor(selfAdmin.id)).toHaveLength(0);
  });

  it("lets only a super administrator grant or revoke super_admin, or deactivate one", async () => {
    const target = await createTestUser();
    const db = await getDb();
    const refused = await userAction(admin, target.id, { intent: "grant", role: "super_admin" });
    expect(refused.status).toBe(403);
    expect(refused.body.ok).toBe(false);
    expect(await activeRoleNames(db, target.id)).toEqual(["paciente"]);
    expect(await auditRowsFor(target.id)).toHaveLength(0);

    const granted = await userAction(superAdmin, target.id, { intent: "grant", role: "super_admin" });
    expect(granted.status).toBe(200);
    expect((await auditRowsFor(target.id))[0]).toMatchObject({
      actorRoles: "super_admin",
      details: { role: "super_admin" },
    });

    expect((await userAction(admin, target.id, { intent: "revoke", role: "super_admin" })).status).toBe(403);
    expect((await userAction(admin, target.id, { intent: "deactivate" })).status).toBe(403);
    expect(await activeRoleNames(db, target.id)).toContain("super_admin");
    expect((await userAction(superAdmin, target.id, { intent: "revoke", role: "super_admin" })).status).toBe(
      200,
    );
  });

  it("answers 400 in Spanish to a bad role or intent and changes nothing", async () => {
    const target = await createTestUser();
    const badRole = await userAction(admin, target.id, { intent: "grant", role: "root" });
    expect(badRole).toEqual({
      status: 400,
      body: { ok: false, code: "VALIDATION", message: "Elige un rol válido." },
    });
    const noRole = await userAction(admin, target.id, { intent: "revoke" });
    expect(noRole.status).toBe(400);
    const badIntent = await userAction(admin, target.id, { intent: "delete" });
    expect(badIntent).toEqual({
      status: 400,
      body: { ok: false, code: "VALIDATION", message: "La acción no es válida." },
    });
    const polluted = await userAction(admin, target.id, {
      intent: "grant",
      role: "ADMIN",
      ["__proto__"]: "x",
    });
    expect(polluted.status).toBe(400);
    expect(await activeRoleNames(await getDb(), target.id)).toEqual(["paciente"]);
    expect(await auditRowsFor(target.id)).toHaveLength(0);
  });
});

async function seedRequests() {
  const db = await getDb();
  const [callback] = await db
    .insert(callbackRequests)
    .values({
      submissionId: randomUUID(),
      name: "Luis Vera",
      phone: "+56987654321",
      preferredTime: "tarde",
      reason: "Consulta por ortodoncia",
      status: "in_progress",
    })
    .returning({ id: callbackRequests.id });
  return { callbackId: callback!.id };
}

describe("/admin/solicitudes", () => {
  it("lists call-back requests with Spanish labels, filters by status (data-subject requests are /admin/privacidad)", async () => {
    const { callbackId } = await seedRequests();
    const all = (await requestsLoader(
      routeArgs(requestAs(admin.cookie, "/admin/solicitudes")),
    )) as RequestsData;
    expect(all.status).toBeNull();
    expect(all).not.toHaveProperty("dataRights");
    expect(all.callbacks.find((row) => row.id === callbackId)).toMatchObject({
      phone: "+56 9 8765 4321",
      preferredTimeLabel: "Tarde (14:00 a 18:00)",
      statusLabel: "En curso",
    });
    const onlyNew = (await requestsLoader(
      routeArgs(requestAs(admin.cookie, "/admin/solicitudes?estado=new")),
    )) as RequestsData;
    expect(onlyNew.status).toBe("new");
    expect(onlyNew.callbacks.some((row) => row.id === callbackId)).toBe(false);
    const junk = (await requestsLoader(
      routeArgs(requestAs(admin.cookie, "/admin/solicitudes?estado=x")),
    )) as RequestsData;
    expect(junk.status).toBeNull();
  });

  it("changes a request's status and audits it; bad input is a 400 and unknown ids a 404", async () => {
    const { callbackId } = await seedRequests();
    const db = await getDb();
    const change = (fields: Record<string, string>) =>
      requestsAction(routeArgs(postAs(admin.cookie, "/admin/solicitudes?estado=new", fields)));

    const { status, body } = unwrap<ActionResult>(
      await change({ kind: "callback", requestId: callbackId, status: "done" }),
    );
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.message).toContain("«Resuelta»");
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "request.status"), eq(auditLog.actorId, admin.id)));
    expect(audit.find((entry) => entry.details.requestId === callbackId)).toMatchObject({
      actorRoles: "admin",
      targetUserId: null,
      ip: "203.0.113.7",
      details: { kind: "callback", requestId: callbackId, from: "in_progress", to: "done" },
    });
    // Data-subject requests are no longer changed here.
    expect(
      unwrap<ActionResult>(await change({ kind: "data_rights", requestId: callbackId, status: "new" }))
        .status,
    ).toBe(400);

    const bad = unwrap<ActionResult>(
      await change({ kind: "callback", requestId: callbackId, status: "archived" }),
    );
    expect(bad).toEqual({
      status: 400,
      body: { ok: false, code: "VALIDATION", message: "Elige un estado válido." },
    });
    expect(
      unwrap<ActionResult>(await change({ kind: "leads", requestId: callbackId, status: "new" })).status,
    ).toBe(400);
    expect(
      unwrap<ActionResult>(await change({ kind: "callback", requestId: "1 or 1=1", status: "new" })).status,
    ).toBe(400);
    const [callbackRow] = await db
      .select({ status: callbackRequests.status })
      .from(callbackRequests)
      .where(eq(callbackRequests.id, callbackId));
    expect(callbackRow?.status).toBe("done");

    expect(
      (await thrownResponse(() => change({ kind: "callback", requestId: randomUUID(), status: "done" })))
        .status,
    ).toBe(404);
  });
});

describe("/admin/auditoria", () => {
  it("lists the latest entries in Spanish with actor and target e-mails", async () => {
    const target = await createTestUser();
    await userAction(admin, target.id, { intent: "grant", role: "dentista" });
    const data = (await auditLoader(routeArgs(requestAs(admin.cookie, "/admin/auditoria")))) as AuditData;
    expect(data.limit).toBe(200);
    expect(data.entries[0]).toMatchObject({
      actionLabel: "Rol otorgado",
      actorEmail: admin.email,
      actorRoles: "Administrador",
      targetEmail: target.email,
      detail: "Rol: Dentista",
      ip: "203.0.113.7",
    });
  });
});
