import { expect, test, type Page } from "@playwright/test";
import { unaccentedForms } from "~/domain/spanish-orthography";
import {
  DEMO_ADMIN,
  DEMO_PASSWORD,
  DEMO_PATIENT,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// Issue 24, item 13: every visible string in correct Spanish. Each page's rendered text (after hydration, so what the
// browser's code adds counts too) is scanned for the forms the specs wrote without accents.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

async function scan(page: Page, paths: readonly string[]) {
  const found: string[] = [];
  for (const path of paths) {
    await openPage(page, path);
    const text = await page.locator("body").innerText();
    found.push(...unaccentedForms(text).map((context) => `${path}: …${context}…`));
  }
  return found;
}

test("public pages", async ({ page }) => {
  const found = await scan(page, [
    "/",
    "/blog",
    "/auth",
    "/auth/recuperar",
    "/politica-privacidad",
    "/terminos-servicio",
    "/devolver-llamada",
    "/eliminar-datos",
    "/no-existe",
  ]);
  expect(found).toEqual([]);
});

test("the patient's portal", async ({ page }) => {
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  const found = await scan(page, [
    "/paciente",
    "/paciente/citas",
    "/paciente/asesor",
    "/paciente/perfil",
    "/paciente/datos",
    "/paciente/ficha",
    "/paciente/pagos",
    "/paciente/lista-de-espera",
    "/paciente/formularios",
    "/cuenta/seguridad",
  ]);
  expect(found).toEqual([]);
});

test("the staff's screens", async ({ page }) => {
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  const found = await scan(page, [
    "/funnel",
    "/funnel?tab=leads",
    "/funnel?tab=dentalink",
    "/funnel?tab=analytics",
    "/funnel/mensajes",
    "/funnel/solicitudes",
    "/test",
    "/equipo/conversaciones",
    "/admin",
    "/admin/solicitudes",
    "/admin/privacidad",
    "/admin/auditoria",
    "/admin/pagos",
    "/admin/recordatorios",
    "/admin/lista-de-espera",
    "/admin/inasistencias",
    "/admin/agenda",
  ]);
  expect(found).toEqual([]);
});
