import { makeSignature } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { sessions, users } from "~/db/schema";
import { activeRoleNames, grantRole, revokeRole } from "~/db/accounts.server";
import { findSessionById, findSessionByToken } from "~/db/session-lookup.server";
import { getAuth } from "~/features/auth/auth-instance.server";
import { authCookieName } from "~/lib/auth/auth.server";
import { loadSessionUser } from "~/lib/auth/session.server";
import { middleware as rootMiddleware } from "~/root";
import { action as signOutAction } from "~/routes/_auth/sign-out";
import { clientForm, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, signInCookie } from "../setup/users";

// ADR 010: loadSessionUser reads session, user and roles in one query and checks the cookie's signature itself,
// so it must refuse everything Better Auth's getSession refuses, with no cache between requests.

const COOKIE = "clinica.session_token";
const SECRET = process.env.AUTH_SECRET!;

const load = (cookie: string) => loadSessionUser(requestAs(cookie, "/paciente"));

function signedValue(cookie: string): string {
  return decodeURIComponent(cookie.slice(`${COOKIE}=`.length));
}

function tokenOf(cookie: string): string {
  return signedValue(cookie).split(".")[0]!;
}

function cookieWith(value: string): string {
  return `${COOKIE}=${encodeURIComponent(value)}`;
}

/** `text` with the character at `at` replaced by another valid base64url/base64 character. */
function flip(text: string, at: number): string {
  return text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
}

async function sessionRow(cookie: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.token, tokenOf(cookie)));
  return row;
}

beforeAll(async () => {
  await getDb();
});
afterAll(closeDb);

describe("a valid session", () => {
  it("yields the same user fields and roles that Better Auth's getSession plus the roles query gave", async () => {
    const user = await createTestUser({ roles: ["paciente", "dentista"], firstName: "Inés" });
    const db = await getDb();
    await db.update(users).set({ lastName: "Zúñiga" }).where(eq(users.id, user.id));
    const auth = await getAuth();
    const before = await auth.api.getSession({ headers: requestAs(user.cookie, "/paciente").headers });
    expect(before).not.toBeNull();
    const expected = {
      id: before!.user.id,
      firstName: before!.user.name,
      lastName: before!.user.lastName ?? "",
      email: before!.user.email,
      emailVerified: before!.user.emailVerified,
      twoFactorEnabled: Boolean(before!.user.twoFactorEnabled),
      sessionId: before!.session.id,
    };

    const found = await load(user.cookie);
    expect(found).not.toBeNull();
    const { roles, ...fields } = found!;
    expect(fields).toEqual(expected);
    expect(fields).toMatchObject({ firstName: "Inés", lastName: "Zúñiga", email: user.email });
    expect(roles.toSorted()).toEqual((await activeRoleNames(db, user.id)).toSorted());
    expect(roles.toSorted()).toEqual(["dentista", "paciente"]);
  });

  it("reads the same row by token (a prepared statement on the embedded database) as by id (Drizzle's query)", async () => {
    const user = await createTestUser({ roles: ["paciente", "admin"], firstName: "O'Higgins" });
    const db = await getDb();
    await db.update(users).set({ lastName: "D'Alembert", deactivatedAt: null }).where(eq(users.id, user.id));
    const byToken = await findSessionByToken(db, tokenOf(user.cookie));
    expect(byToken).not.toBeNull();
    const byId = await findSessionById(db, byToken!.sessionId);
    expect(byToken).toEqual(byId);
    expect(byToken).toMatchObject({ userId: user.id, firstName: "O'Higgins", lastName: "D'Alembert" });
    expect(byToken!.expiresAt).toBeInstanceOf(Date);
    expect(byToken!.roles.toSorted()).toEqual(["admin", "paciente"]);
    // A token of other characters (never one Better Auth makes) takes the parameterised path and finds nothing.
    expect(await findSessionByToken(db, `${tokenOf(user.cookie)}'; select 1; --`)).toBeNull();
    expect(await findSessionByToken(db, "no-such-token")).toBeNull();
  });

  it("reads the cookie Better Auth sets, under the name Better Auth gives it", async () => {
    const context = await (await getAuth()).$context;
    expect(context.authCookies.sessionToken.name).toBe(authCookieName("session_token"));
    expect(authCookieName("session_token")).toBe(COOKIE);
  });

  it("gives a user without any active role an empty role list, not an error", async () => {
    const user = await createTestUser({ roles: [] });
    expect(await load(user.cookie)).toMatchObject({ id: user.id, roles: [] });
  });

  it("accepts a cookie signed like Better Auth signs it and reads only the first cookie of that name", async () => {
    const user = await createTestUser();
    const token = tokenOf(user.cookie);
    const resigned = cookieWith(`${token}.${await makeSignature(token, SECRET)}`);
    expect((await load(resigned))?.id).toBe(user.id);
    const other = await createTestUser();
    expect((await load(`${user.cookie}; ${other.cookie}`))?.id).toBe(user.id);
    expect((await load(`look.alike_session_token=x; ${user.cookie}`))?.id).toBe(user.id);
  });
});

describe("revocation is immediate (the embedded database keeps the row between requests, and forgets it at any write)", () => {
  it("refuses a session signed out on another device on the very next request", async () => {
    const user = await createTestUser();
    const phone = await signInCookie(user.email, user.password);
    expect((await load(user.cookie))?.id).toBe(user.id);
    expect((await load(phone))?.id).toBe(user.id);

    const out = await settle(() =>
      signOutAction(routeArgs(clientForm("/auth/salir", {}, { cookie: phone }))),
    );
    expect(out.status).toBe(302);
    expect(await sessionRow(phone)).toBeUndefined();

    expect(await load(phone)).toBeNull();
    expect((await load(user.cookie))?.id).toBe(user.id);
  });

  it("refuses a session whose row was deleted, right after it was accepted", async () => {
    const user = await createTestUser();
    expect((await load(user.cookie))?.id).toBe(user.id);
    const db = await getDb();
    await db.delete(sessions).where(eq(sessions.token, tokenOf(user.cookie)));
    expect(await load(user.cookie)).toBeNull();
  });

  it("refuses a deactivated user's session on the next request", async () => {
    const user = await createTestUser();
    expect((await load(user.cookie))?.id).toBe(user.id);
    const db = await getDb();
    await db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, user.id));
    expect(await load(user.cookie)).toBeNull();
  });
});

describe("the kept session row (embedded database) never outlives a change", () => {
  it("sees a role revoked, a role granted and a renamed user on the very next request", async () => {
    const user = await createTestUser({ roles: ["paciente", "dentista"] });
    expect((await load(user.cookie))?.roles.toSorted()).toEqual(["dentista", "paciente"]);
    expect((await load(user.cookie))?.roles.toSorted()).toEqual(["dentista", "paciente"]);
    const db = await getDb();
    await revokeRole(db, user.id, "dentista");
    expect((await load(user.cookie))?.roles).toEqual(["paciente"]);
    await grantRole(db, user.id, "admin");
    expect((await load(user.cookie))?.roles.toSorted()).toEqual(["admin", "paciente"]);
    await db.execute(sql`update users set first_name = 'Renombrada' where id = ${user.id}`);
    expect((await load(user.cookie))?.firstName).toBe("Renombrada");
  });

  it("sees a session deleted by raw SQL, and one deleted inside a transaction once it commits", async () => {
    const [a, b] = [await createTestUser(), await createTestUser()];
    expect((await load(a.cookie))?.id).toBe(a.id);
    expect((await load(b.cookie))?.id).toBe(b.id);
    const db = await getDb();
    await db.execute(sql`delete from sessions where token = ${tokenOf(a.cookie)}`);
    expect(await load(a.cookie)).toBeNull();
    expect((await load(b.cookie))?.id).toBe(b.id);
    await db.transaction(async (tx) => {
      await tx.delete(sessions).where(eq(sessions.token, tokenOf(b.cookie)));
    });
    expect(await load(b.cookie)).toBeNull();
  });

  // PostgreSQL keeps no row between requests (and its pool has no `exec` to watch).
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "serves no row a deletion has removed, though the look-up was under way when the deletion was issued",
    async () => {
      const user = await createTestUser();
      const db = await getDb();
      const token = tokenOf(user.cookie);
      await findSessionByToken(db, "warm-up-token-of-no-session");
      // The deletion is issued the moment the look-up's statement is: PGlite runs the look-up first (it reads the row),
      // then the deletion. Once both are done the row must never be served again.
      const client = (db as unknown as { $client: { exec: (...args: unknown[]) => Promise<unknown> } })
        .$client;
      const exec = client.exec;
      let deletion: Promise<unknown> | undefined;
      client.exec = function (this: unknown, ...args: unknown[]) {
        const result = exec.apply(this, args);
        if (!deletion && String(args[0]).startsWith("execute ")) {
          deletion = db.delete(sessions).where(eq(sessions.token, token)).execute();
        }
        return result;
      };
      try {
        expect((await findSessionByToken(db, token))?.userId).toBe(user.id);
        await deletion;
      } finally {
        client.exec = exec;
      }
      expect(deletion).toBeDefined();
      expect(await findSessionByToken(db, token)).toBeNull();
      expect(await load(user.cookie)).toBeNull();
    },
  );

  it("hands each request its own copy: changing one does not change the next", async () => {
    const user = await createTestUser({ roles: ["paciente"] });
    const first = await load(user.cookie);
    first!.roles.push("admin");
    first!.firstName = "Cambiada";
    const second = await load(user.cookie);
    expect(second?.roles).toEqual(["paciente"]);
    expect(second?.firstName).not.toBe("Cambiada");
  });
});

describe("cookies that are not a valid signed session", () => {
  it("refuses a token signed with another secret (a forged signature)", async () => {
    const user = await createTestUser();
    const token = tokenOf(user.cookie);
    const forged = await makeSignature(token, "not-the-secret-0123456789abcdef-xyz");
    expect(forged).toHaveLength(44);
    expect(await load(cookieWith(`${token}.${forged}`))).toBeNull();
    expect(await sessionRow(user.cookie)).toBeDefined();
  });

  it("refuses the token of one session with the signature of another", async () => {
    const [a, b] = [await createTestUser(), await createTestUser()];
    const signatureOfB = signedValue(b.cookie).split(".")[1]!;
    expect(await load(cookieWith(`${tokenOf(a.cookie)}.${signatureOfB}`))).toBeNull();
    expect((await load(a.cookie))?.id).toBe(a.id);
  });

  it("refuses tampered values: a changed token, a changed or cut signature, an unsigned token", async () => {
    const user = await createTestUser();
    const [token, signature] = signedValue(user.cookie).split(".") as [string, string];
    for (const value of [
      `${flip(token, 3)}.${signature}`,
      `${token}.${flip(signature, 10)}`,
      `${token}.${signature.slice(0, 43)}`,
      `${token}.${signature}x`,
      `${token}.`,
      token,
      `.${signature}`,
      `${token}.${"!".repeat(43)}=`,
    ]) {
      expect({ value, user: await load(cookieWith(value)) }).toEqual({ value, user: null });
    }
    expect((await load(user.cookie))?.id).toBe(user.id);
  });

  it("refuses an expired session and deletes it, as Better Auth does", async () => {
    const user = await createTestUser();
    const db = await getDb();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.token, tokenOf(user.cookie)));
    expect(await load(user.cookie)).toBeNull();
    expect(await sessionRow(user.cookie)).toBeUndefined();
  });
});

describe("sliding refresh (Better Auth: expiresIn 12 h, updateAge 1 h)", () => {
  const HOUR = 60 * 60_000;

  it("extends the expiry to now + 12 h once an hour has passed since it was set, and not before", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const notDue = new Date(Date.now() + 12 * HOUR - 30 * 60_000);
    await db
      .update(sessions)
      .set({ expiresAt: notDue })
      .where(eq(sessions.token, tokenOf(user.cookie)));
    expect((await load(user.cookie))?.id).toBe(user.id);
    expect((await sessionRow(user.cookie))!.expiresAt.getTime()).toBe(notDue.getTime());

    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 11 * HOUR - 60_000) })
      .where(eq(sessions.token, tokenOf(user.cookie)));
    const before = Date.now();
    expect((await load(user.cookie))?.id).toBe(user.id);
    const row = (await sessionRow(user.cookie))!;
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 12 * HOUR - 1000);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 12 * HOUR);
    expect(Date.now() - row.updatedAt.getTime()).toBeLessThan(60_000);
  });

  it("re-sends the session cookie with a fresh Max-Age when the expiry slides, so the browser keeps it", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const throughRoot = async (extraSetCookie?: string) => {
      const args = routeArgs(requestAs(user.cookie, "/paciente"));
      const page = async () => {
        const response = new Response("ok");
        if (extraSetCookie) response.headers.append("Set-Cookie", extraSetCookie);
        return response;
      };
      // The whole chain of the root's middleware, in order, as React Router runs it.
      const run = (index: number): Promise<unknown> =>
        index === rootMiddleware.length
          ? page()
          : Promise.resolve(rootMiddleware[index]!(args, () => run(index + 1) as Promise<Response>));
      const response = (await run(0)) as Response;
      return response.headers.getSetCookie();
    };
    const makeDue = () =>
      db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + 11 * HOUR - 60_000) })
        .where(eq(sessions.token, tokenOf(user.cookie)));

    // Not due: the cookie set at sign-in stands, nothing is re-sent.
    expect(await throughRoot()).toEqual([]);

    await makeDue();
    const [cookie, ...more] = await throughRoot();
    expect(more).toEqual([]);
    const parts = cookie!.split("; ");
    expect(parts[0]).toBe(
      `${authCookieName("session_token")}=${encodeURIComponent(signedValue(user.cookie))}`,
    );
    expect(parts).toEqual(expect.arrayContaining(["Max-Age=43200", "Path=/", "HttpOnly", "SameSite=Lax"]));
    // Plain http here: no Secure attribute (and no __Host- prefix), as Better Auth sets it.
    expect(parts).not.toContain("Secure");

    // A response that sets the session cookie itself (a sign-out clearing it) keeps its own.
    await makeDue();
    const clearing = `${authCookieName("session_token")}=; Max-Age=0; Path=/`;
    expect(await throughRoot(clearing)).toEqual([clearing]);
  });
});
