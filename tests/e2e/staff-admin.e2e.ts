import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// The staff dashboards and the admin pages: the funnel's tabs, the shared tables, and their accessibility.

const DEMO_ADVISOR = "asesor@clinica.example";

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("funnel: the sections are tabs kept in the URL; arrow keys move between them, Enter opens one", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel");
  const tablist = page.getByRole("tablist", { name: "Secciones del dashboard" });
  const overview = tablist.getByRole("tab", { name: "Overview" });
  const leads = tablist.getByRole("tab", { name: "Gestión de Leads" });
  await expect(overview).toHaveAttribute("aria-selected", "true");
  await expect(leads).toHaveAttribute("aria-selected", "false");
  await expect(page.getByRole("tabpanel", { name: "Overview" })).toBeVisible();
  // One tab stop: the inactive tab is reached with the arrow keys only.
  await expect(leads).toHaveAttribute("tabindex", "-1");
  let { ids, report } = await blockingViolations(page);
  expect(ids, `axe on /funnel:\n${report}`).toEqual([]);

  await overview.focus();
  await page.keyboard.press("ArrowRight");
  await expect(leads).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname === "/funnel" && url.search === "?tab=leads");
  await expect(leads).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Gestión de Leads" })).toBeVisible();
  // The whole page with the lead panel, its coloured action buttons included.
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on /funnel?tab=leads:\n${report}`).toEqual([]);

  await overview.click();
  await expect(page).toHaveURL((url) => url.pathname === "/funnel" && url.search === "");
  await expect(page.getByRole("tabpanel", { name: "Overview" })).toBeVisible();

  await openPage(page, "/test");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard de Pruebas" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Volver al Funnel" })).toHaveAttribute("href", "/funnel");
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on /test:\n${report}`).toEqual([]);
});

test("admin: users, a user's page, requests and the audit log render their tables and cards without axe violations", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/admin");
  const users = page.getByTestId("admin-users-table");
  await expect(users.getByRole("columnheader")).toHaveText([
    "Nombre",
    "E-mail",
    "Roles",
    "E-mail verificado",
    "2FA",
    "Estado",
    "Creado",
  ]);
  await expect(page.getByRole("region", { name: "Usuarios" })).toBeVisible();
  let { ids, report } = await blockingViolations(page);
  expect(ids, `axe on /admin:\n${report}`).toEqual([]);

  await users.getByRole("row").filter({ hasText: DEMO_ADMIN }).getByRole("link").click();
  await expect(page).toHaveURL(/\/admin\/usuarios\//);
  for (const name of ["Datos", "Roles", "Acceso"]) {
    await expect(page.getByRole("region", { name })).toBeVisible();
  }
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on a user's page:\n${report}`).toEqual([]);

  await openPage(page, "/admin/solicitudes");
  await expect(
    page.getByRole("heading", { level: 2, name: /^Devolución de llamada \(\d+\)$/ }),
  ).toBeVisible();
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on /admin/solicitudes:\n${report}`).toEqual([]);

  await openPage(page, "/admin/auditoria");
  await expect(page.getByRole("heading", { level: 1, name: "Auditoría" })).toBeVisible();
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on /admin/auditoria:\n${report}`).toEqual([]);
});
