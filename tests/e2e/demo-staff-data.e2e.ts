import { expect, test } from "@playwright/test";
import {
  blockingViolations,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  openPage,
  signInByRequest,
  useOwnClientIp,
} from "./support";

// Issue 24, item 12b: the demo's staff side is not empty. The demo server seeds a few hundred leads over 90 days
// with their messages, chat conversations and Dentalink syncs; these checks read only what is at least that large,
// so the other tests' own leads and messages (added in parallel) never change their outcome.

const DEMO_ADVISOR = "asesor@clinica.example";

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

const numberIn = async (text: Promise<string>) => Number((await text).replace(/\D/g, ""));

test("the lead panel's counters, the lead list and the WhatsApp log have hundreds of entries", async ({
  page,
}) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel?tab=leads");
  expect(await numberIn(page.getByTestId("counter-total").locator("dd").innerText())).toBeGreaterThanOrEqual(
    300,
  );
  for (const key of ["hot", "warm", "cold", "new", "converted"]) {
    expect(await numberIn(page.getByTestId(`counter-${key}`).locator("dd").innerText()), key).toBeGreaterThan(
      10,
    );
  }
  await expect(page.getByTestId("lead-card")).toHaveCount(25);

  await openPage(page, "/funnel/mensajes");
  await expect(page.getByTestId("message-row").first()).toBeVisible();
  expect(await page.getByTestId("message-row").count()).toBeGreaterThanOrEqual(20);
});

test("the Analytics tab's charts have many days of leads for the last 90 days", async ({ page }) => {
  await signInByRequest(page, DEMO_ADVISOR, DEMO_PASSWORD);
  await openPage(page, "/funnel?tab=analytics&period=90");
  const rows = page.getByTestId("chart-table-by-source").locator("tbody tr");
  await expect(rows).toHaveCount(90);
  // Most days of the quarter have leads: a day's cells (one per source) are not all zeros.
  const totals = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll("td")].reduce(
        (sum, td) => sum + Number(td.textContent?.replace(/\D/g, "") || 0),
        0,
      ),
    ),
  );
  expect(totals.filter((total) => total > 0).length).toBeGreaterThan(45);
});

test("the inbox has conversations, one waiting for a person; axe finds nothing serious", async ({ page }) => {
  await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
  await openPage(page, "/equipo/conversaciones");
  const waiting = page.getByRole("region", { name: /^Esperando a una persona/ });
  const paula = waiting.getByTestId("inbox-room").filter({ hasText: "Paula Herrera" });
  await expect(paula).toBeVisible();
  await expect(paula).toContainText("espera");
  expect(await page.getByTestId("inbox-room").count()).toBeGreaterThanOrEqual(4);
  const axe = await blockingViolations(page);
  expect(axe.ids, axe.report).toEqual([]);
});
