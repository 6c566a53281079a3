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

// The rights workflow's public entry and the clinic's queue (ADR 037), in one walk: someone asks on /eliminar-datos,
// proves the e-mail with the link from the demo outbox (/dev/correos), and the admin sees the request with its clock
// in /admin/privacidad and refuses it with a reason.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("a public erasure request: refused input, the e-mailed link confirms it, the admin sees the clock and refuses it", async ({
  page,
}) => {
  const email = uniqueEmail("derechos");
  const name = `Marta ${email.slice(9, 15)}`;

  await openPage(page, "/eliminar-datos");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Solicitud sobre tus datos personales");
  const form = page.locator("form[method='post']");
  await expect(form.getByLabel("¿Qué derecho quieres ejercer?")).toHaveValue("supresion");
  await form.getByLabel("Nombre completo").fill(name);
  // Accepted by the browser's own check (no dot needed), refused by the schema.
  await form.getByLabel("E-mail", { exact: true }).fill("marta@correo");
  await form.getByRole("checkbox", { name: /Declaro que los datos son correctos/ }).check();
  await form.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(page.getByText("Ingresa un e-mail válido")).toBeVisible();
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveAttribute("aria-invalid", "true");
  let { ids, report } = await blockingViolations(page);
  expect(ids, `axe on /eliminar-datos:\n${report}`).toEqual([]);

  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByRole("checkbox", { name: /bloqueen mis datos mientras deciden/ }).check();
  const consent = page.getByRole("checkbox", { name: /Declaro que los datos son correctos/ });
  if (!(await consent.isChecked())) await consent.check();
  await page.getByRole("button", { name: "Enviar solicitud" }).click();
  const sent = page.getByTestId("request-sent");
  await expect(sent).toContainText("Te enviamos un enlace de confirmación por e-mail");
  const reference = (await sent.locator("strong").innerText()).trim();
  expect(reference).toMatch(/^[0-9A-F]{8}$/);

  const mail = await newestMail(page, email, /Confirma tu solicitud/);
  expect(mail.link).toContain("/eliminar-datos/confirmar/");
  await openPage(page, new URL(mail.link!).pathname);
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on the confirmation page:\n${report}`).toEqual([]);
  await page.getByRole("button", { name: "Confirmar mi solicitud" }).click();
  await expect(page.getByTestId("request-confirmed")).toContainText("Te responderemos a más tardar el");
  await expect(page.getByTestId("request-confirmed")).toContainText(reference);

  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/admin/privacidad");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacidad: solicitudes de derechos");
  const row = page.getByTestId("privacy-queue").getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Supresión (eliminación)");
  await expect(row).toContainText(/3[01] días/);
  await expect(row).toContainText("Recibida");
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on /admin/privacidad:\n${report}`).toEqual([]);

  await row.getByRole("link", { name: "Supresión (eliminación)" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(reference);
  await expect(page.getByTestId("privacy-identity")).toHaveText(
    "Verificada: abrió el enlace enviado a su e-mail",
  );
  await expect(page.getByText("Sí, pedido por la persona")).toBeVisible();
  ({ ids, report } = await blockingViolations(page));
  expect(ids, `axe on a request's page:\n${report}`).toEqual([]);

  await page.getByLabel("Motivo del rechazo").fill("No encontramos datos tuyos distintos de esta solicitud.");
  await page.getByRole("button", { name: "Rechazar" }).click();
  await expect(page.getByRole("status").filter({ hasText: "rechazada" })).toBeVisible();
  await expect(page.getByText("Rechazada", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("privacy-history")).toContainText("Bloqueo temporal levantado");

  const answer = await newestMail(page, email, /Rechazamos tu solicitud/);
  expect(answer.text).toContain("dentro de 30 días hábiles");
});
