import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { loader as funnelLoader } from "~/routes/_staff/funnel";
import { loader as dentistLoader } from "~/routes/_dentist/agenda";
import { routeArgs } from "../setup/route-args";
import { requestAs } from "../setup/clients";
import { createTestUser } from "../setup/users";

// This file runs with two-factor required for staff (the production default); other files run it optional.
// Hoisted above the imports: the env module is read once, when the first module using it loads.
vi.hoisted(() => {
  process.env.AUTH_STAFF_2FA = "required";
});
afterAll(async () => {
  delete process.env.AUTH_STAFF_2FA;
  await closeDb();
});

async function outcome(promise: Promise<unknown>) {
  try {
    return { value: await promise };
  } catch (thrown) {
    return { thrown };
  }
}

describe("AUTH_STAFF_2FA=required", () => {
  it("sends an asesor without two-factor to enrol first", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    const result = await outcome(funnelLoader(routeArgs(requestAs(asesor.cookie, "/funnel"))));
    expect(result.thrown).toBeInstanceOf(Response);
    const response = result.thrown as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/cuenta/seguridad?requerido=1");
  });

  it("lets the asesor in once two-factor is on", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    const db = await getDb();
    await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, asesor.id));
    const result = await outcome(funnelLoader(routeArgs(requestAs(asesor.cookie, "/funnel"))));
    expect(result.thrown).toBeUndefined();
    expect(result.value).toBeTruthy();
  });

  it("does not ask dentists for it (not a staff role of DESIGN §6)", async () => {
    const dentist = await createTestUser({ roles: ["dentista"] });
    const result = await outcome(dentistLoader(routeArgs(requestAs(dentist.cookie, "/dentista"))));
    expect(result.thrown).toBeUndefined();
  });
});
