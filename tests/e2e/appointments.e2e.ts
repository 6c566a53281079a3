import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";
import {
  createAccount,
  DEMO_PASSWORD,
  DEMO_PATIENT,
  newAccount,
  newestMail,
  openPage,
  signInByRequest,
  testWithMailReader,
  useOwnClientIp,
  waitForHydration,
  WCAG_TAGS,
} from "./support";

// Mis Citas (ADR 005): lists, tabs and the real actions.

const test = testWithMailReader;

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

const upcomingTab = (page: Page) => page.getByRole("tab", { name: /^Próximas Citas \(\d+\)$/ });
const historyTab = (page: Page) => page.getByRole("tab", { name: /^Historial \(\d+\)$/ });
const upcomingPanel = (page: Page) => page.getByTestId("panel-upcoming");
const historyPanel = (page: Page) => page.getByTestId("panel-history");

function countIn(label: string): number {
  const match = /\((\d+)\)$/.exec(label.trim());
  if (!match) throw new Error(`no count in tab label "${label}"`);
  return Number(match[1]);
}

async function openAppointments(page: Page) {
  await openPage(page, "/paciente/citas");
  await expect(page.getByRole("heading", { level: 1, name: "Mis Citas" })).toBeVisible();
}

/** A fresh patient, signed in in this browser context, on /paciente/citas. */
async function freshPatient(page: Page) {
  const account = await createAccount(page.context().request, newAccount("citas"));
  await openAppointments(page);
  return account;
}

/** A fresh patient who followed the e-mailed confirmation link, signed in in this browser context, on /paciente/citas. */
async function verifiedPatient(page: Page, mailReader: Page) {
  const account = await createAccount(page.context().request, newAccount("citas"));
  const mail = await newestMail(mailReader, account.email, /Confirma tu correo/);
  expect(mail.link, `a link in:\n${mail.text}`).toBeTruthy();
  const confirmed = await page.goto(mail.link!);
  expect(confirmed?.ok(), `following ${mail.link} answers ${confirmed?.status()}`).toBe(true);
  await openAppointments(page);
  return account;
}

/** Picks one of the later open days, so parallel tests rarely ask for the same one. */
async function pickDay(dialog: Locator, avoid?: string) {
  const days = dialog.getByTestId("day-options").getByRole("button");
  const count = await days.count();
  expect(count).toBeGreaterThan(5);
  let index = 2 + Math.floor(Math.random() * (count - 2));
  if (avoid && (await days.nth(index).getAttribute("data-date")) === avoid)
    index = index === count - 1 ? 2 : index + 1;
  const day = days.nth(index);
  const date = (await day.getAttribute("data-date"))!;
  const label = (await day.getAttribute("data-label"))!;
  await day.click();
  return { date, label };
}

/** Picks the first free time shown (waits for the slots to load). */
async function pickTime(dialog: Locator) {
  const times = dialog.getByTestId("time-options").getByRole("button");
  await expect(times.first()).toBeVisible();
  const time = (await times.first().innerText()).trim();
  await times.first().click();
  return time;
}

/** Books through the dialog: treatment → any dentist → a day → the first free time → confirm. */
async function bookThroughDialog(page: Page, opener: Locator, treatment = "Consulta y evaluación") {
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Agendar nueva cita" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Paso 1 de 5: Tratamiento" })).toBeVisible();
  await dialog.getByRole("radio", { name: new RegExp(`^${treatment}`) }).check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await expect(dialog.getByRole("heading", { name: "Paso 2 de 5: Dentista" })).toBeVisible();
  await expect(dialog.getByRole("radio", { name: "Cualquier dentista disponible" })).toBeChecked();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await expect(dialog.getByRole("heading", { name: "Paso 3 de 5: Fecha" })).toBeVisible();
  const day = await pickDay(dialog);
  await expect(dialog.getByRole("heading", { name: "Paso 4 de 5: Hora" })).toBeVisible();
  const time = await pickTime(dialog);
  await expect(dialog.getByRole("heading", { name: "Paso 5 de 5: Confirmar" })).toBeVisible();
  const summary = dialog.getByTestId("booking-summary");
  await expect(summary).toContainText(treatment);
  await expect(summary).toContainText(time);
  await dialog.getByRole("button", { name: "Confirmar cita" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/quedó agendada para el/)).toBeVisible();
  return { ...day, time };
}

test("demo patient: both tabs show the right counts, every card and the notice", async ({ page }) => {
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  await openAppointments(page);
  await expect(
    page.getByText("Gestiona tus citas dentales y revisa tu historial de tratamientos."),
  ).toBeVisible();

  await expect(upcomingTab(page)).toHaveAttribute("aria-selected", "true");
  const upcomingCount = countIn(await upcomingTab(page).innerText());
  const historyCount = countIn(await historyTab(page).innerText());
  expect(upcomingCount).toBeGreaterThan(0);
  expect(historyCount).toBeGreaterThan(0);
  await expect(upcomingPanel(page).getByTestId("appointment-card")).toHaveCount(upcomingCount);
  await expect(
    page.getByText(
      "Recuerda confirmar tus citas programadas llamando a la clínica o usando nuestro asesor virtual.",
    ),
  ).toBeVisible();

  // Every card has its fields; upcoming ones are sorted by date and time.
  const upcomingCards = upcomingPanel(page).getByTestId("appointment-card");
  for (const card of await upcomingCards.all()) {
    await expect(card.getByRole("heading", { level: 3 })).not.toBeEmpty();
    await expect(card.getByTestId("status-badge")).toHaveText(
      /^(Programada|Confirmada|En Progreso|Completada|Cancelada|No Asistió)$/,
    );
    await expect(card).toContainText(/\d{2}:\d{2} \(\d+ min\)/);
    await expect(card).toContainText(/Dra?\. \S+/);
    await expect(card).toContainText("Precio estimado: $");
  }
  const starts = await upcomingCards
    .locator("time")
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime") ?? ""));
  expect(starts.toSorted()).toEqual(starts);

  // Keyboard: the arrow keys move between the tabs.
  await upcomingTab(page).focus();
  await page.keyboard.press("ArrowRight");
  await expect(historyTab(page)).toBeFocused();
  await expect(historyTab(page)).toHaveAttribute("aria-selected", "true");
  await expect(historyPanel(page)).toBeVisible();
  await expect(upcomingPanel(page)).toBeHidden();
  const historyCards = historyPanel(page).getByTestId("appointment-card");
  await expect(historyCards).toHaveCount(historyCount);
  const pastStarts = await historyCards
    .locator("time")
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("datetime") ?? ""));
  expect(pastStarts.toSorted().toReversed()).toEqual(pastStarts);
  // Nothing in the history can be changed.
  await expect(
    historyPanel(page).getByRole("button", { name: /Cancelar|Reprogramar|Confirmar/ }),
  ).toHaveCount(0);
  await page.keyboard.press("ArrowLeft");
  await expect(upcomingTab(page)).toBeFocused();
  await expect(upcomingPanel(page)).toBeVisible();

  // Demo data covers every status.
  const badges = await page.getByTestId("status-badge").allInnerTexts();
  for (const label of ["Programada", "Confirmada", "En Progreso", "Completada", "Cancelada", "No Asistió"]) {
    expect(badges).toContain(label);
  }

  // Issue 24, item 11: dentists carry their title (the women of the demo are "Dra."), and every demo appointment is
  // inside the clinic's hours (9:00–18:00), the one in progress included.
  await expect(upcomingPanel(page).getByText("Dra. Fernanda Vidal").first()).toBeVisible();
  await expect(page.getByText("Dr. Fernanda Vidal")).toHaveCount(0);
  const spans = await page
    .getByTestId("appointment-card")
    .evaluateAll((cards) =>
      cards.map((card) => /(\d{2}:\d{2}) \((\d+) min\)/.exec(card.textContent ?? "")?.slice(1) ?? []),
    );
  expect(spans.length).toBeGreaterThan(0);
  for (const [time, minutes] of spans) {
    const [hour, minute] = time!.split(":").map(Number);
    const start = hour! * 60 + minute!;
    expect(start, time).toBeGreaterThanOrEqual(9 * 60);
    expect(start + Number(minutes), time).toBeLessThanOrEqual(18 * 60);
  }
});

test("a patient without a confirmed e-mail is told that booking needs it, on Mis Citas and on the dashboard", async ({
  page,
}) => {
  await freshPatient(page);
  const notice = page.getByTestId("booking-closed");
  await expect(notice).toContainText("Para agendar una cita necesitas confirmar tu correo");
  const book = page.getByRole("button", { name: "Agendar Nueva Cita" });
  await expect(book).toBeDisabled();
  await expect(book).toHaveAccessibleDescription(/necesitas confirmar tu correo/);
  await expect(page.getByRole("button", { name: "Agendar Cita", exact: true })).toBeDisabled();

  await notice.getByRole("link", { name: "Ir a Mi Portal" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/paciente");
  await expect(page.getByRole("status").filter({ hasText: "Confirma tu correo" })).toContainText(
    "no podrás agendar citas",
  );
});

test("a new patient sees both empty states, books a slot and confirms it", async ({ page, mailReader }) => {
  await verifiedPatient(page, mailReader);
  await expect(page.getByTestId("booking-closed")).toHaveCount(0);
  await expect(upcomingTab(page)).toHaveText("Próximas Citas (0)");
  await expect(historyTab(page)).toHaveText("Historial (0)");
  await expect(page.getByText("No tienes citas programadas")).toBeVisible();
  await expect(page.getByText("Agenda tu próxima cita para mantener tu salud dental al día")).toBeVisible();
  await historyTab(page).click();
  await expect(page.getByText("No hay historial de citas")).toBeVisible();
  await upcomingTab(page).click();

  const booked = await bookThroughDialog(
    page,
    page.getByRole("button", { name: "Agendar Cita", exact: true }),
  );
  await expect(upcomingTab(page)).toHaveText("Próximas Citas (1)");
  const card = upcomingPanel(page).getByTestId("appointment-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading", { name: "Consulta y evaluación" })).toBeVisible();
  await expect(card).toContainText(`${booked.time} (30 min)`);
  await expect(card).toContainText(booked.label);
  await expect(card.getByTestId("status-badge")).toHaveText("Programada");
  await expect(page.getByText(/Recuerda confirmar tus citas programadas/)).toBeVisible();

  await card.getByRole("button", { name: "Confirmar" }).click();
  await expect(card.getByTestId("status-badge")).toHaveText("Confirmada");
  await expect(page.getByText("Tu cita quedó confirmada. ¡Te esperamos!")).toBeVisible();
  await expect(card.getByRole("button", { name: "Confirmar" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Reprogramar" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Cancelar" })).toBeVisible();
});

test("reschedule: another free slot with the same dentist", async ({ page, mailReader }) => {
  await verifiedPatient(page, mailReader);
  const booked = await bookThroughDialog(page, page.getByRole("button", { name: "Agendar Nueva Cita" }));
  const card = upcomingPanel(page).getByTestId("appointment-card");
  // "Any dentist" may give a woman of the demo, "Dra." (issue 24).
  const dentist = (await card.getByText(/^Dra?\. /).innerText()).trim();

  await card.getByRole("button", { name: "Reprogramar" }).click();
  const dialog = page.getByRole("dialog", { name: "Reprogramar cita" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(dentist);
  const day = await pickDay(dialog, booked.date);
  const time = await pickTime(dialog);
  await expect(dialog.getByTestId("reschedule-summary")).toContainText(`${day.label}, ${time}`);
  await dialog.getByRole("button", { name: "Confirmar cambio" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Tu cita se reprogramó para el/)).toBeVisible();
  await expect(card).toContainText(day.label);
  await expect(card).toContainText(`${time} (30 min)`);
  await expect(card).toContainText(dentist);
  await expect(upcomingTab(page)).toHaveText("Próximas Citas (1)");
});

test("cancel: the dialog states the policy; a cancelled appointment offers nothing more", async ({
  page,
  mailReader,
}) => {
  await verifiedPatient(page, mailReader);
  await bookThroughDialog(page, page.getByRole("button", { name: "Agendar Nueva Cita" }));
  const card = upcomingPanel(page).getByTestId("appointment-card");
  const cancelButton = card.getByRole("button", { name: "Cancelar" });

  // Escape closes the dialog and gives the focus back.
  await cancelButton.click();
  const dialog = page.getByRole("dialog", { name: "Cancelar cita" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(cancelButton).toBeFocused();

  await cancelButton.click();
  await expect(dialog.getByTestId("cancellation-policy")).toContainText(
    "Cancelar con 24 horas o más de anticipación no tiene costo.",
  );
  await expect(dialog).toContainText("con menos de 24 horas se cobra el 50% del valor del tratamiento");
  await dialog.getByRole("button", { name: "Sí, cancelar cita" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Tu cita fue cancelada sin costo.")).toBeVisible();
  await expect(card.getByTestId("status-badge")).toHaveText("Cancelada");
  await expect(card.getByRole("button")).toHaveCount(0);
  await expect(page.getByText(/Recuerda confirmar tus citas programadas/)).toHaveCount(0);
});

test("'Contactar Clínica' offers phone and WhatsApp links; the dialog keeps and returns focus", async ({
  page,
}) => {
  await freshPatient(page);
  const opener = page.getByRole("button", { name: "Contactar Clínica" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Contactar a la clínica" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: /Llamar a la clínica/ })).toHaveAttribute(
    "href",
    /^tel:\+56\d{9}$/,
  );
  await expect(dialog.getByRole("link", { name: /Llamar al celular/ })).toHaveAttribute(
    "href",
    /^tel:\+569\d{8}$/,
  );
  await expect(dialog.getByRole("link", { name: /WhatsApp/ })).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\/569\d{8}\?text=/,
  );
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  // Tabbing never reaches the page behind a modal dialog (past the last link the browser's own UI may take it).
  for (let index = 0; index < 8; index += 1) {
    await page.keyboard.press("Tab");
    const where = await dialog.evaluate((element) => {
      const active = document.activeElement;
      if (!active || active === document.body) return "outside-document";
      return element.contains(active) ? "dialog" : `page: ${active.outerHTML.slice(0, 80)}`;
    });
    expect(["dialog", "outside-document"]).toContain(where);
  }
  await expect(dialog.getByRole("button", { name: "Cerrar" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("axe: no serious or critical violations on /paciente/citas, also with the booking dialog open", async ({
  page,
}) => {
  // Five full axe runs.
  test.slow();
  await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
  await openAppointments(page);
  await waitForHydration(page);
  const found: string[] = [];
  const check = async (state: string) => {
    const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    for (const violation of results.violations) {
      if (violation.impact === "serious" || violation.impact === "critical") {
        found.push(
          `${state}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
        );
      }
    }
  };
  await check("page");
  await historyTab(page).click();
  await check("history");
  await upcomingTab(page).click();
  await page.getByRole("button", { name: "Agendar Nueva Cita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar nueva cita" });
  await expect(dialog).toBeVisible();
  await check("booking, treatment step");
  await dialog.getByRole("radio").first().check();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await dialog.getByRole("button", { name: "Siguiente" }).click();
  await check("booking, date step");
  await dialog.getByTestId("day-options").getByRole("button").nth(3).click();
  await expect(dialog.getByTestId("time-options").getByRole("button").first()).toBeVisible();
  await check("booking, time step");
  expect(found, found.join("\n")).toEqual([]);
});
