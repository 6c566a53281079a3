import { expect, test } from "@playwright/test";
import { blockingViolations, createAccount, newAccount, openPage, useOwnClientIp } from "./support";

// Mis Datos (ADR 037): a patient who agreed to WhatsApp reminders in Mi Perfil withdraws that consent on
// /paciente/datos with one switch, and sees it withdrawn (also after a reload). axe on the page.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("a patient withdraws the WhatsApp reminders consent on Mis Datos and sees it withdrawn", async ({
  page,
}) => {
  await createAccount(page.context().request, newAccount("misdatos"));

  // The consent is given where the product asks for it: Mi Perfil.
  await openPage(page, "/paciente/perfil");
  await page.getByLabel("Teléfono", { exact: true }).fill("9 8765 4321");
  await page
    .getByRole("checkbox", { name: "Recibir recordatorios y avisos de mis citas por WhatsApp" })
    .check();
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Tu información ha sido guardada correctamente")).toBeVisible();

  // The patient navigation leads to Mis Datos.
  await page.getByRole("link", { name: "Mis Datos" }).first().click();
  await page.waitForURL((url) => url.pathname === "/paciente/datos");
  await expect(page.getByRole("heading", { level: 1, name: "Mis Datos" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Mis consentimientos" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Descargar mis datos" })).toBeVisible();

  const consent = page.getByTestId("consent-recordatorios_whatsapp");
  const toggle = consent.getByRole("switch", { name: "Recordatorios y avisos de mis citas por WhatsApp" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(consent.getByTestId("consent-state")).toHaveText("Otorgado");
  await consent.getByText("Ver historial y textos aceptados").click();
  await expect(consent.getByText("versión v1", { exact: false })).toBeVisible();
  await expect(consent.getByText("(Mi Perfil)", { exact: false })).toBeVisible();

  const { ids, report } = await blockingViolations(page);
  expect(ids, report).toEqual([]);

  await toggle.click();
  await expect(page.getByRole("status")).toHaveText(
    "Retiraste tu consentimiento: Recordatorios y avisos de mis citas por WhatsApp.",
  );
  await expect(consent.getByTestId("consent-state")).toHaveText("Retirado");
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  // Stored: a reload shows it withdrawn, with when and where.
  await page.reload();
  await expect(consent.getByTestId("consent-state")).toHaveText("Retirado");
  await consent.getByText("Ver historial y textos aceptados").click();
  await expect(consent.getByText("(Mis Datos)", { exact: false })).toBeVisible();
  // Mi Perfil's checkbox follows the ledger.
  await openPage(page, "/paciente/perfil");
  await expect(
    page.getByRole("checkbox", { name: "Recibir recordatorios y avisos de mis citas por WhatsApp" }),
  ).not.toBeChecked();
});
