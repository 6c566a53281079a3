import { expect, test } from "@playwright/test";
import { guides } from "~/content/guides";
import { DEMO_PASSWORD, DEMO_PATIENT, openLanding, signInByRequest } from "./support";

const navLinks = [
  { name: "Home", href: "#home" },
  { name: "Tratamientos", href: "#tratamientos" },
  { name: "E-books", href: "/blog" },
  { name: "Contacto", href: "#contacto" },
] as const;

test.describe("landing page", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/");
  });

  test("header: navigation links and the patient portal", async ({ page }) => {
    const header = page.getByRole("banner");
    const nav = header.getByRole("navigation", { name: "Navegación principal" });
    await expect(nav).toBeVisible();
    for (const link of navLinks) {
      await expect(nav.getByRole("link", { name: link.name, exact: true })).toHaveAttribute(
        "href",
        link.href,
      );
    }
    await expect(header.getByRole("link", { name: "Portal Paciente" })).toHaveAttribute("href", "/auth");
  });

  test("header anchor links bring their section into view", async ({ page }) => {
    await openLanding(page);
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Navegación principal" });
    await nav.getByRole("link", { name: "Contacto", exact: true }).click();
    await expect(page).toHaveURL(/#contacto$/);
    await expect(page.getByRole("heading", { name: "Contacto", level: 2 })).toBeInViewport();
    await nav.getByRole("link", { name: "Tratamientos", exact: true }).click();
    await expect(page).toHaveURL(/#tratamientos$/);
    await expect(page.getByRole("heading", { name: "Tratamientos", level: 2 })).toBeInViewport();
  });

  test("footer: its section links scroll this page, its page links navigate", async ({ page }) => {
    await openLanding(page);
    const footer = page.getByRole("contentinfo");
    const services = footer.getByRole("navigation", { name: "Servicios" });
    await expect(services.getByRole("link", { name: "Ortodoncia" })).toHaveAttribute("href", "#tratamientos");
    await footer.getByRole("link", { name: "Agendar evaluación" }).click();
    await expect(page).toHaveURL(/\/#lead-capture$/);
    await expect(page.locator("#lead-capture").getByRole("heading", { level: 2 })).toBeInViewport();
    await footer.getByRole("link", { name: "Blog y e-books" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("hero: headline, claims and a muted looping background video", async ({ page }) => {
    const hero = page.locator("#home");
    await expect(hero.getByRole("heading", { level: 1 })).toContainText("Odontología y estética facial");
    for (const claim of ["18 años", "20.000+", "94%"]) {
      await expect(hero.getByText(claim, { exact: true })).toBeVisible();
    }
    await expect(hero.getByRole("link", { name: "Agenda tu evaluación gratuita" })).toHaveAttribute(
      "href",
      "#lead-capture",
    );

    const video = page.getByTestId("hero-video");
    await expect(video).toHaveAttribute("loop", "");
    await expect(video).toHaveAttribute("playsinline", "");
    await expect(video).toHaveAttribute("poster", /account_id=/);
    // `muted` must be in the HTML (autoplay policies read the attribute before any script runs) and in effect.
    await expect(video).toHaveAttribute("muted", "");
    expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
  });

  test("treatments section", async ({ page }) => {
    const section = page.locator("#tratamientos");
    await expect(section.getByRole("heading", { name: "Tratamientos", level: 2 })).toBeVisible();
    await expect(section.getByRole("listitem")).toHaveCount(6);
    await expect(section.getByRole("heading", { name: "Implantes dentales" })).toBeVisible();
  });

  test("testimonials: four verified Google reviews, rating and video", async ({ page }) => {
    const section = page.getByRole("region", { name: "Lo que dicen nuestros pacientes" });
    await expect(section).toBeVisible();
    const reviews = section.getByRole("listitem");
    await expect(reviews).toHaveCount(4);
    for (const review of await reviews.all()) {
      await expect(review).toContainText("Verificado");
      await expect(review).toContainText("Google Reviews");
      await expect(review.getByRole("img", { name: "5 de 5 estrellas" })).toBeVisible();
    }
    await expect(section.getByText("4.9/5", { exact: true })).toBeVisible();
    await expect(section).toContainText("en Google Reviews");

    const allReviews = section.getByRole("link", { name: /Ver Todas las Opiniones/ });
    await expect(allReviews).toHaveAttribute("target", "_blank");
    await expect(allReviews).toHaveAttribute("rel", /\bnoopener\b/);
    await expect(allReviews).toHaveAttribute("href", /^https:\/\//);

    const video = page.getByTestId("testimonial-video");
    await expect(video).toBeVisible();
    await expect(video).toHaveAttribute("controls", "");
    await expect(video).toHaveAttribute("poster", /account_id=/);
  });

  test("e-books: three guides that lead to the blog", async ({ page }) => {
    const section = page.getByRole("region", { name: "E-books y guías gratuitas" });
    const cards = section.getByRole("listitem");
    await expect(cards).toHaveCount(3);
    // The spec's titles, with the PDFs' real page counts (issue 24, item 9).
    const titles = [
      "Guía Completa de Implantes Dentales",
      "Estética Facial Avanzada",
      "Carillas y Estética Dental",
    ];
    const expected = titles.map((title) => ({
      title,
      pages: `${guides.find((guide) => guide.title === title)!.pages} páginas`,
    }));
    for (const [index, guide] of expected.entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole("heading", { name: guide.title })).toBeVisible();
      await expect(card).toContainText(guide.pages);
      await expect(card.getByRole("link", { name: "Descargar Gratis" })).toHaveAttribute("href", "/blog");
      await expect(card.getByRole("img")).toHaveAttribute("src", /account_id=/);
    }
    await expect(section.getByRole("link", { name: "Ver Blog Completo" })).toHaveAttribute("href", "/blog");
  });

  test("lead capture form is present", async ({ page }) => {
    const section = page.locator("#lead-capture");
    await expect(section.getByRole("heading", { name: "Agenda tu evaluación gratuita" })).toBeVisible();
    await expect(section.locator("form")).toBeVisible();
    await expect(section.getByRole("button", { name: "Quiero mi evaluación gratuita" })).toBeVisible();
  });

  test("contact section: hours and the patient portal card", async ({ page }) => {
    const section = page.locator("#contacto");
    await expect(section.getByRole("heading", { name: "Contacto", level: 2 })).toBeVisible();
    await expect(section.getByText("Lun - Vie: 9:00 AM - 18:00 hrs")).toBeVisible();
    await expect(section.getByRole("link", { name: "+56 2 2345 6789" })).toHaveAttribute(
      "href",
      "tel:+56223456789",
    );
    await expect(section.getByRole("heading", { name: "Accede a tu Portal IA" })).toBeVisible();
    await expect(section.getByRole("link", { name: "Iniciar Sesión" })).toHaveAttribute("href", "/auth");
  });

  test("footer: three link columns and the legal pages", async ({ page }) => {
    const footer = page.getByRole("contentinfo");
    for (const column of ["Servicios", "IA Dental", "Recursos"]) {
      const nav = footer.getByRole("navigation", { name: column });
      await expect(nav).toBeVisible();
      await expect(nav.getByRole("heading", { name: column })).toBeVisible();
      expect(await nav.getByRole("link").count()).toBeGreaterThan(0);
    }
    await expect(footer.locator('a[href="/politica-privacidad"]').first()).toBeVisible();
    await expect(footer.locator('a[href="/terminos-servicio"]').first()).toBeVisible();
    await expect(footer.getByRole("link", { name: "Política de Privacidad" }).last()).toHaveAttribute(
      "href",
      "/politica-privacidad",
    );
    await expect(footer.getByRole("link", { name: "Términos de Servicio" }).last()).toHaveAttribute(
      "href",
      "/terminos-servicio",
    );
  });

  // The landing is rendered from a build that holds only its own two routes (ADR 052): the browser must still find
  // the other pages through route discovery (/__manifest) and reach them without a document request.
  test("the blog and the sign-in page open from the landing by client navigation", async ({ page }) => {
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    await openLanding(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page
      .getByRole("region", { name: "E-books y guías gratuitas" })
      .getByRole("link", { name: "Ver Blog Completo" })
      .click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog y Recursos Gratuitos");
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole("banner").getByRole("link", { name: "Portal Paciente" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("heading", { level: 1, name: "Iniciar sesión" })).toBeVisible();
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    expect(documents).toEqual(["/"]);
  });

  // The server writes the treatments, testimonials, e-books, contact and footer as prepared markup (ADR 055): the
  // browser's render of the same components must find exactly that markup, or React reports a mismatch and throws
  // the server's page away.
  test("hydrates without an error, anonymous and signed in", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await openLanding(page);
    await expect(page.locator("#contacto").getByRole("link", { name: "Iniciar Sesión" })).toBeVisible();
    await signInByRequest(page, DEMO_PATIENT, DEMO_PASSWORD);
    await openLanding(page);
    await expect(page.locator("#contacto").getByRole("link", { name: "Ir a Mi Portal" })).toHaveAttribute(
      "href",
      "/paciente",
    );
    expect(errors).toEqual([]);
  });

  test("the footer's privacy link opens the privacy policy", async ({ page }) => {
    await openLanding(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Política de Privacidad" }).last().click();
    await expect(page).toHaveURL(/\/politica-privacidad$/);
    await expect(page.getByRole("heading", { level: 1, name: "Política de Privacidad" })).toBeVisible();
  });
});

test.describe("mobile menu (375 px)", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test("the toggle opens the menu with the same links, and a link closes it", async ({ page }) => {
    await openLanding(page);
    const header = page.getByRole("banner");
    // The desktop navigation is hidden; the mobile one is closed.
    await expect(header.locator("nav:not(#menu-movil)")).toBeHidden();
    await expect(page.locator("#menu-movil")).toBeHidden();

    const toggle = header.getByRole("button", { name: "Abrir menú" });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toHaveAttribute("aria-controls", "menu-movil");

    await toggle.click();
    const closeToggle = header.getByRole("button", { name: "Cerrar menú" });
    await expect(closeToggle).toHaveAttribute("aria-expanded", "true");
    const menu = page.locator("#menu-movil");
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute("aria-label", "Navegación principal");
    for (const link of navLinks) {
      await expect(menu.getByRole("link", { name: link.name, exact: true })).toHaveAttribute(
        "href",
        link.href,
      );
    }
    await expect(menu.getByRole("link", { name: "Portal Paciente" })).toHaveAttribute("href", "/auth");

    // Closing with the same button.
    await closeToggle.click();
    await expect(menu).toBeHidden();
    await expect(header.getByRole("button", { name: "Abrir menú" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );

    // Keyboard: Tab from the button goes into the menu; Escape closes it and gives focus back to the button.
    await header.getByRole("button", { name: "Abrir menú" }).click();
    await expect(menu).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: navLinks[0]!.name, exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(header.getByRole("button", { name: "Abrir menú" })).toBeFocused();

    // A link navigates to its anchor and closes the menu.
    await header.getByRole("button", { name: "Abrir menú" }).click();
    await menu.getByRole("link", { name: "Contacto", exact: true }).click();
    await expect(page).toHaveURL(/#contacto$/);
    await expect(menu).toBeHidden();
    await expect(header.getByRole("button", { name: "Abrir menú" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  test("a menu link scrolls its section into view", async ({ page }) => {
    await openLanding(page);
    await page.getByRole("button", { name: "Abrir menú" }).click();
    await page.locator("#menu-movil").getByRole("link", { name: "Contacto", exact: true }).click();
    await expect(page).toHaveURL(/#contacto$/);
    await expect(page.getByRole("heading", { name: "Contacto", level: 2 })).toBeInViewport();
  });
});

test.describe("hero claims on a phone (375 px, issue 24, item 6)", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test("each claim's figure stays inside its own card", async ({ page }) => {
    await openLanding(page);
    const cards = page.locator("#contenido dl > div");
    await expect(cards).toHaveCount(3);
    for (const card of await cards.all()) {
      const box = (await card.boundingBox())!;
      const figure = (await card.locator("dd").evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const rect = range.getBoundingClientRect();
        return { left: rect.left, right: rect.right };
      }))!;
      expect(figure.left, await card.innerText()).toBeGreaterThanOrEqual(box.x);
      expect(figure.right, await card.innerText()).toBeLessThanOrEqual(box.x + box.width);
    }
  });
});
