import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import {
  blockingViolations,
  createAccount,
  newAccount,
  openPage,
  useOwnClientIp,
  waitForHydration,
} from "./support";

// 'Descargar mis datos' (access and portability, Ley 21.719; ADR 037): the export is built in the background with
// its progress shown, then downloaded as a ZIP with datos.json and resumen.pdf.

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

test("a patient asks for their data, sees the progress and downloads the ZIP", async ({ page }) => {
  const account = await createAccount(page.context().request, newAccount("datos"));
  await openPage(page, "/paciente/datos");
  const panel = page.getByRole("region", { name: "Descargar mis datos" });
  await expect(panel).toBeVisible();
  expect((await blockingViolations(page)).report).toBe("");

  await panel.getByRole("button", { name: "Descargar mis datos" }).click();
  await waitForHydration(page);
  const progress = panel.getByRole("progressbar");
  await expect(progress).toBeVisible();
  // The step being read is announced with the percentage, and the bar moves on while the job reads the tables.
  await expect(progress).toHaveAttribute("aria-valuetext", /^\d+ %: .+/);
  await expect
    .poll(async () => Number(await progress.getAttribute("aria-valuenow")), { timeout: 20_000 })
    .toBeGreaterThan(0);
  expect((await blockingViolations(page)).report).toBe("");

  const link = panel.getByRole("link", { name: /Descargar archivo ZIP/ });
  await expect(link).toBeVisible({ timeout: 30_000 });
  await expect(progress).toHaveCount(0);
  await expect(panel.getByText(/Disponible hasta el \d+ de [a-z]+ de \d{4}/)).toBeVisible();
  await expect(panel.getByRole("heading", { name: "Descargas anteriores" })).toBeVisible();
  expect((await blockingViolations(page)).report).toBe("");

  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^datos-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  expect(Object.keys(files).toSorted()).toEqual(["LEEME.txt", "datos.json", "resumen.pdf"]);
  const data = JSON.parse(strFromU8(files["datos.json"]!)) as { titular: { correo: string } };
  expect(data.titular.correo).toBe(account.email);
  expect(strFromU8(files["datos.json"]!)).toContain(account.email);
  expect(strFromU8(files["resumen.pdf"]!.subarray(0, 4))).toBe("%PDF");
});
