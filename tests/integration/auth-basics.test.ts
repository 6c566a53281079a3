import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { loader as dashboardLoader } from "~/routes/_patient/dashboard";
import { routeArgs } from "../setup/route-args";
import { requestAs } from "../setup/clients";
import { createTestUser } from "../setup/users";

afterAll(closeDb);

describe("test users", () => {
  it("signs in and reaches the patient dashboard; anonymous is sent to /auth", async () => {
    const user = await createTestUser({ firstName: "Lucía" });
    const data = await dashboardLoader(routeArgs(requestAs(user.cookie, "/paciente")));
    expect(data).toMatchObject({ firstName: "Lucía" });
    const anonymous = await dashboardLoader(routeArgs(requestAs(undefined, "/paciente/citas?x=1"))).catch(
      (error: unknown) => error,
    );
    expect(anonymous).toBeInstanceOf(Response);
    expect((anonymous as Response).status).toBe(302);
    expect((anonymous as Response).headers.get("location")).toBe(
      "/auth?redirectTo=%2Fpaciente%2Fcitas%3Fx%3D1",
    );
  });
});
