import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  newestMail,
  openPage,
  signInByRequest,
  uniqueEmail,
  useOwnClientIp,
} from "./support";

// ADR 038: an admin records a breach in the register, previews the notice to the people affected, confirms it, and
// the e-mail goes out through the outbox. Axe on both pages.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("breach register: record an incident, preview and send the notice", async ({ page }) => {
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/admin/privacidad/incidentes");
  await expect(page.getByRole("heading", { level: 1, name: "Incidentes de seguridad" })).toBeVisible();
  let { ids, report } = await blockingViolations(page);
  expect(ids, `axe on /admin/privacidad/incidentes:\n${report}`).toEqual([]);

  const title = `Correo a destinatarios equivocados ${Date.now()}`;
  const form = page.getByRole("region", { name: "Registrar un incidente" });
  await form.getByLabel("Qué ocurrió (título)").fill(title);
  await form
    .getByLabel("Descripción del incidente y sus efectos")
    .fill("Un recordatorio con el detalle de la cita se envió a una persona equivocada.");
  await form.getByLabel("Cuándo ocurrió (si se sabe)").fill("2026-01-10T09:15");
  await form.getByLabel("Cuándo se descubrió").fill("2026-01-10T11:40");
  await form.getByLabel("Categorías de datos afectados").fill("nombre, fecha y tratamiento de la cita");
  await form.getByLabel(/Involucra datos de salud/).check();
  await form.getByLabel("Número de personas afectadas").fill("1");
  await form.getByLabel("Medidas adoptadas").fill("Se corrigió la lista de envío.");
  await form.getByRole("button", { name: "Registrar incidente" }).click();

  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("Incidente registrado.");
  await expect(
    page.getByText("Involucra datos de salud: la ley exige informar a las personas afectadas."),
  ).toBeVisible();

  const person = uniqueEmail("afectada");
  const notice = page.getByRole("region", { name: "Aviso a las personas afectadas" });
  await expect(notice.getByLabel("Texto del aviso")).toHaveValue(/Agencia de Protección de Datos Personales/);
  await notice.getByLabel("Correos de las personas afectadas").fill(`${person}\nno-es-correo`);
  await notice.getByRole("button", { name: "Revisar aviso" }).click();

  const preview = page.getByRole("region", { name: "Vista previa del aviso" });
  await expect(preview.getByTestId("notice-recipients")).toHaveText(person);
  await expect(preview).toContainText("No son correos válidos y se omiten: no-es-correo");
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on the incident page with the preview:\n${report}`).toEqual([]);

  await preview.getByLabel("Revisé el texto y los destinatarios").check();
  await preview.getByRole("button", { name: "Enviar aviso a 1 persona" }).click();
  await expect(page.getByTestId("admin-status")).toHaveText("Aviso en cola de envío para 1 persona.");
  await expect(page.getByTestId("notices-sent")).toHaveText("Avisos enviados: 1");

  const mail = await newestMail(page, person, /incidente de seguridad/);
  expect(mail.text).toContain("nombre, fecha y tratamiento de la cita");

  // The register lists it, with the people told.
  await openPage(page, "/admin/privacidad/incidentes");
  const row = page.getByTestId("incidents-table").getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("1 avisos");
});
