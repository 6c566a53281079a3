import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { loader as funnelLoader } from "~/routes/_staff/funnel";
import { loader as dentistLoader } from "~/routes/_dentist/agenda";
import { action as recordAction, loader as recordLoader } from "~/routes/_dentist/clinical-record";
import { loader as recordFileLoader } from "~/routes/_dentist/clinical-record-file";
import { routeArgs } from "../setup/route-args";
import { postAs, requestAs } from "../setup/clients";
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

  // A dentist opens any patient's record by RUT, so an unenrolled dentist is a staff account
  // whose password alone reads clinical data.
  it("sends a dentist without two-factor to enrol before the record lookup, its action and its files", async () => {
    const dentist = await createTestUser({ roles: ["dentista"] });
    const attempts = [
      () => recordLoader(routeArgs(requestAs(dentist.cookie, "/dentista/ficha"))),
      () =>
        recordAction(
          routeArgs(
            postAs(dentist.cookie, "/dentista/ficha", {
              rut: "12.345.678-5",
              reason: "Control de tratamiento de ortodoncia",
            }),
          ),
        ),
      () =>
        recordFileLoader(
          routeArgs(requestAs(dentist.cookie, "/dentista/ficha/archivo/9001?rut=12345678-5"), { id: "9001" }),
        ),
      () => dentistLoader(routeArgs(requestAs(dentist.cookie, "/dentista"))),
    ];
    for (const attempt of attempts) {
      const result = await outcome(attempt());
      expect(result.value).toBeUndefined();
      const response = result.thrown as Response;
      expect(response).toBeInstanceOf(Response);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/cuenta/seguridad?requerido=1");
    }
  });

  it("lets the dentist open the lookup once two-factor is on", async () => {
    const dentist = await createTestUser({ roles: ["dentista"] });
    const db = await getDb();
    await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, dentist.id));
    const result = await outcome(recordLoader(routeArgs(requestAs(dentist.cookie, "/dentista/ficha"))));
    expect(result.thrown).toBeUndefined();
  });
});
