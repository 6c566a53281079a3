import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  blockingViolations,
  createAccount,
  DEMO_ADMIN,
  DEMO_PASSWORD,
  newAccount,
  openLanding,
  openPage,
  signInByRequest,
  useOwnClientIp,
  waitForHydration,
} from "./support";

// Issue 24: the fixed controls cover nothing (item 7), a phone reaches every destination through a menu (item 8),
// and one app-wide toaster confirms actions on any page (item 18).

test.beforeEach(async ({ context }) => {
  await useOwnClientIp(context);
});

/**
 * The points of `target` where something else is on top, each as "x,y → what": its centre, the middle of each edge
 * (3 px in) and each corner (12 px in, inside rounded corners). A point outside the viewport counts as covered.
 */
async function coveredPoints(target: Locator) {
  return target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const [midX, midY] = [(rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2];
    const corner = Math.min(12, rect.width / 2 - 1, rect.height / 2 - 1);
    const points: Array<[number, number]> = [
      [midX, midY],
      [rect.left + 3, midY],
      [rect.right - 3, midY],
      [midX, rect.top + 3],
      [midX, rect.bottom - 3],
      [rect.left + corner, rect.top + corner],
      [rect.right - corner, rect.top + corner],
      [rect.left + corner, rect.bottom - corner],
      [rect.right - corner, rect.bottom - corner],
    ];
    const covered: string[] = [];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === element || element.contains(hit))) continue;
      const what = hit
        ? `${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ""} ${hit.getAttribute("aria-label") ?? ""}`
        : "outside the viewport";
      covered.push(`${Math.round(x)},${Math.round(y)} → ${what.trim()}`);
    }
    return covered;
  });
}

/** Scrolls `target` to the bottom edge of the screen, as a reader scrolling down meets it (no smooth scrolling). */
async function scrollToScreenBottom(target: Locator) {
  await target.evaluate((element) => element.scrollIntoView({ block: "end", behavior: "instant" }));
}

/** Scrolls to the end of the page. */
async function scrollToEnd(page: Page) {
  await page.evaluate(() => {
    const scroller = document.scrollingElement ?? document.documentElement;
    window.scrollTo({ top: scroller.scrollHeight, behavior: "instant" });
  });
}

/** The page scrolls sideways: its width beyond the viewport's, in px (0 when it fits). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const scroller = document.scrollingElement ?? document.documentElement;
    return Math.max(0, scroller.scrollWidth - window.innerWidth);
  });
}

test.describe("phones (375 px)", () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test("the chat launcher covers neither the advisor's input nor the end of Mi Perfil", async ({ page }) => {
    await createAccount(page.context().request, newAccount("fijo"));
    await openPage(page, "/paciente/asesor");
    const launcher = page.getByRole("button", { name: "Abrir chat con el Dentista Virtual IA" });
    await expect(launcher).toBeVisible();

    const input = page.getByPlaceholder("Escribe tu consulta aquí...");
    const send = page.getByRole("button", { name: "Enviar mensaje" });
    await scrollToScreenBottom(input);
    expect(await coveredPoints(input), "the advisor's input").toEqual([]);
    expect(await coveredPoints(send), "the advisor's send button").toEqual([]);
    await input.click();
    await expect(input).toBeFocused();

    await openPage(page, "/paciente/perfil");
    const lastField = page.getByLabel("Teléfono de emergencia");
    const save = page.getByRole("button", { name: "Guardar Cambios" });
    for (const target of [lastField, save]) {
      await scrollToScreenBottom(target);
      expect(await coveredPoints(target), await target.evaluate((element) => element.outerHTML)).toEqual([]);
    }
    // The end of the page: its last line of content scrolls clear of the launcher.
    await scrollToEnd(page);
    // The page's own content, not the fixed controls (the launcher sits in the same layout, and hides while the page
    // scrolls, ADR 043).
    const lastLine = page
      .locator(
        "#contenido :is(p, a, button, li, dd, h2, h3):not([data-floating-control], [data-floating-control] *)",
      )
      .last();
    expect(await coveredPoints(lastLine), "the last line of Mi Perfil").toEqual([]);
    await lastField.click();
    await expect(lastField).toBeFocused();
    expect(await sidewaysOverflow(page)).toBe(0);
  });

  test("on / the helpers cover neither the hero's call to action nor 'Términos de Servicio'", async ({
    page,
  }) => {
    await openLanding(page);
    // The first screen of common phones (iPhone SE, the tests' 740, iPhone X): the calls to action are on it, clear.
    const ctas = page.locator("#home").getByRole("link");
    await expect(ctas).toHaveCount(2);
    for (const height of [667, 740, 812]) {
      await page.setViewportSize({ width: 375, height });
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
      for (const cta of await ctas.all()) {
        expect(await coveredPoints(cta), `${await cta.innerText()} at 375 × ${height}`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 375, height: 667 });

    await scrollToEnd(page);
    const terms = page.getByRole("contentinfo").getByRole("link", { name: "Términos de Servicio" }).last();
    expect(await coveredPoints(terms), "the footer's 'Términos de Servicio'").toEqual([]);
    expect(await sidewaysOverflow(page)).toBe(0);
    await terms.click();
    await expect(page).toHaveURL(/\/terminos-servicio$/);
  });

  test("the menu reaches Seguridad, Mi Portal and every patient page; nothing scrolls sideways", async ({
    page,
  }) => {
    await createAccount(page.context().request, newAccount("menu"));
    await openPage(page, "/paciente");
    const header = page.getByRole("banner");
    const toggle = header.getByRole("button", { name: "Menú" });
    const menu = page.locator("#menu-areas");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toHaveAttribute("aria-controls", "menu-areas");
    await expect(menu).toBeHidden();
    // Neither the bar's areas nor the row of patient pages is on screen: they are in the menu.
    await expect(header.getByRole("link", { name: "Seguridad" })).toHaveCount(0);
    await expect(header.getByRole("link", { name: "Mis Citas" })).toHaveCount(0);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    const patientNav = menu.getByRole("navigation", { name: "Navegación del portal" });
    const areas = menu.getByRole("navigation", { name: "Mis áreas" });
    for (const [name, href] of [
      ["Dashboard", "/paciente"],
      ["Mis Citas", "/paciente/citas"],
      ["Asesor Virtual", "/paciente/asesor"],
      ["Mi Perfil", "/paciente/perfil"],
      ["Mis Datos", "/paciente/datos"],
      ["Mi Ficha", "/paciente/ficha"],
      ["Mis Pagos", "/paciente/pagos"],
    ] as const) {
      await expect(patientNav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
      await expect(patientNav.getByRole("link", { name, exact: true })).toBeInViewport();
    }
    await expect(areas.getByRole("link", { name: "Mi Portal" })).toHaveAttribute("href", "/paciente");
    await expect(areas.getByRole("link", { name: "Seguridad" })).toHaveAttribute("href", "/cuenta/seguridad");
    const { ids, report } = await blockingViolations(page);
    expect(ids, `axe with the menu open:\n${report}`).toEqual([]);

    // Escape closes it and gives focus back to the button; Tab from the button goes into the menu.
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(patientNav.getByRole("link", { name: "Dashboard" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(toggle).toBeFocused();

    // A link navigates and closes the menu.
    await toggle.click();
    await areas.getByRole("link", { name: "Seguridad" }).click();
    await page.waitForURL((url) => url.pathname === "/cuenta/seguridad");
    await expect(menu).toBeHidden();
    await waitForHydration(page);
    await header.getByRole("button", { name: "Menú" }).click();
    await areas.getByRole("link", { name: "Mi Portal" }).click();
    await page.waitForURL((url) => url.pathname === "/paciente");
    await header.getByRole("button", { name: "Menú" }).click();
    await patientNav.getByRole("link", { name: "Mi Perfil" }).click();
    await page.waitForURL((url) => url.pathname === "/paciente/perfil");
    await expect(page.getByRole("heading", { level: 1, name: "Mi Perfil" })).toBeVisible();

    // No page of the portal scrolls sideways on a phone.
    const wide: string[] = [];
    for (const path of [
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
    ]) {
      await openPage(page, path);
      const overflow = await sidewaysOverflow(page);
      if (overflow > 0) wide.push(`${path}: ${overflow} px`);
    }
    expect(wide).toEqual([]);
  });

  test("a staff account reaches its areas through the menu", async ({ page }) => {
    await signInByRequest(page, DEMO_ADMIN, DEMO_PASSWORD);
    await openPage(page, "/cuenta/seguridad");
    await page.getByRole("banner").getByRole("button", { name: "Menú" }).click();
    const areas = page.locator("#menu-areas").getByRole("navigation", { name: "Mis áreas" });
    for (const name of ["Fichas", "Leads", "Llamadas", "Pagos", "Administración", "Seguridad", "Mis Datos"]) {
      await expect(areas.getByRole("link", { name, exact: true })).toBeInViewport();
    }
    await areas.getByRole("link", { name: "Leads", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/funnel");
  });
});

test("at 768 px the patient navigation is one line of single-line labels, without scrolling", async ({
  page,
}) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await createAccount(page.context().request, newAccount("fila"));
  await openPage(page, "/paciente");
  const nav = page.getByRole("banner").getByRole("navigation", { name: "Navegación del portal" });
  await expect(nav).toBeVisible();
  const links = nav.getByRole("link");
  await expect(links).toHaveCount(7);
  const boxes = await links.evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      const lineHeight = Number.parseFloat(getComputedStyle(element).lineHeight);
      const padding = Number.parseFloat(getComputedStyle(element).paddingTop) * 2;
      return { top: rect.top, lines: Math.round((rect.height - padding) / lineHeight) };
    }),
  );
  expect(new Set(boxes.map((box) => Math.round(box.top))).size, "one row").toBe(1);
  expect(boxes.map((box) => box.lines)).toEqual(Array.from({ length: 7 }, () => 1));
  const list = nav.getByRole("list");
  const scrolls = await list.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(scrolls, "the row scrolls sideways").toBe(false);
  await expect(page.getByRole("banner").getByRole("button", { name: "Menú" })).toBeVisible();
});

test("on / the helpers leave 'Términos de Servicio' clear at tablet and laptop widths too", async ({
  page,
}) => {
  for (const viewport of [
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
  ]) {
    await page.setViewportSize(viewport);
    await openLanding(page);
    await scrollToEnd(page);
    const terms = page.getByRole("contentinfo").getByRole("link", { name: "Términos de Servicio" }).last();
    expect(await coveredPoints(terms), `at ${viewport.width} px`).toEqual([]);
  }
});

test("one app-wide toaster: a patient page other than Mi Perfil and Mis Citas confirms with a toast", async ({
  page,
}) => {
  await createAccount(page.context().request, newAccount("aviso"));
  const toaster = page.locator('section[aria-label^="Notificaciones"]');
  for (const path of ["/paciente/perfil", "/paciente/citas", "/paciente/lista-de-espera"]) {
    await openPage(page, path);
    await expect(toaster, `one toaster on ${path}`).toHaveCount(1);
  }

  // Joining the waitlist: the form is far below the page's own message, so the toast confirms it where one is.
  await page.getByLabel("Tratamiento").selectOption({ label: "Consulta y evaluación" });
  const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Avísame hasta el").fill(until);
  await page.getByRole("button", { name: "Unirme a la lista de espera" }).click();
  await expect(toaster.getByText("Listo: te avisaremos si se libera una hora que te acomode.")).toBeVisible();
  await expect(toaster).toHaveCount(1);
  await expect(toaster.getByRole("button", { name: "Cerrar notificación" })).toBeVisible();
});
