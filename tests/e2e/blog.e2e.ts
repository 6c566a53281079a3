import { expect, test, type Page } from "@playwright/test";
import { guides as guideList } from "~/content/guides";
import { openPage } from "./support";

// The spec's titles; the page counts are the PDFs' real ones (issue 24, item 9), checked against the PDFs by
// app/features/content/guides.server.test.ts.
const titles = [
  "Guía Completa de Implantes Dentales",
  "Estética Facial Avanzada",
  "Carillas y Estética Dental",
];
const guides = guideList.map((guide) => ({ ...guide, pages: `${guide.pages} páginas` }));

const cards = (page: Page) => page.getByTestId("article-card");
const search = (page: Page) => page.getByRole("searchbox", { name: "Buscar artículos" });
const categories = (page: Page) => page.getByRole("group", { name: "Categorías" });

test.describe("blog", () => {
  test.beforeEach(async ({ page }) => {
    await openPage(page, "/blog");
  });

  test("hero and the three free guides", async ({ page }) => {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog y Recursos Gratuitos");
    const section = page.getByRole("region", { name: "E-books y Guías Gratuitas" });
    const items = section.getByRole("listitem");
    await expect(items).toHaveCount(3);
    expect(guides.map((guide) => guide.title)).toEqual(titles);
    for (const [index, guide] of guides.entries()) {
      const item = items.nth(index);
      await expect(item.getByRole("heading", { name: guide.title })).toBeVisible();
      await expect(item.getByText("GRATIS", { exact: true })).toBeVisible();
      await expect(item.getByText(guide.pages, { exact: true })).toBeVisible();
      await expect(item.getByRole("link", { name: /Descargar Gratis/ })).toHaveAttribute(
        "href",
        `/guias/${guide.slug}.pdf`,
      );
    }
  });

  test("the unfiltered list starts with the featured article", async ({ page }) => {
    await expect(cards(page)).toHaveCount(5);
    await expect(cards(page).first()).toContainText("Destacado");
    await expect(page.getByText("Destacado", { exact: true })).toHaveCount(1);
    await expect(categories(page).getByRole("button", { name: "Todos" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  });

  test("search is case-insensitive and filters the cards", async ({ page }) => {
    await search(page).fill("implantes");
    await expect(page).toHaveURL(/[?&]q=implantes/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Implantes dentales paso a paso");

    await search(page).fill("IMPLANTES");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Implantes dentales paso a paso");

    // Matches in the excerpt count too ("radiografías" is only in an excerpt).
    await search(page).fill("Radiografías");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Inteligencia artificial en el diagnóstico dental");

    await search(page).fill("");
    await expect(cards(page)).toHaveCount(5);
  });

  test("category buttons filter the cards", async ({ page }) => {
    await categories(page).getByRole("button", { name: "Estética Facial" }).click();
    await expect(categories(page).getByRole("button", { name: "Estética Facial" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(page).toHaveURL(/categoria=Est%C3%A9tica(\+|%20)Facial/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Armonización facial");
    await expect(page.getByText("Destacado", { exact: true })).toHaveCount(0);

    await categories(page).getByRole("button", { name: "Tecnología IA" }).click();
    await expect(categories(page).getByRole("button", { name: "Tecnología IA" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(cards(page)).toHaveCount(2);
    for (const card of await cards(page).all()) await expect(card).toContainText("Tecnología IA");
    await expect(cards(page).first()).toContainText("Destacado");

    // Search and category combine.
    await search(page).fill("sonrisa");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Diseño digital de sonrisa con IA");

    await categories(page).getByRole("button", { name: "Todos" }).click();
    await expect(categories(page).getByRole("button", { name: "Todos" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(cards(page)).toHaveCount(3); // "sonrisa" in every category
    await search(page).fill("");
    await expect(cards(page)).toHaveCount(5);
  });

  test("on a slow connection, choosing a category and then typing keeps both filters", async ({ page }) => {
    // Filtering is client-side, but every change goes through a router navigation that revalidates on the
    // server; with ~0.8 s of latency the search must still combine with the category chosen just before.
    await page.route(/\.data(\?|$)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await categories(page).getByRole("button", { name: "Tecnología IA" }).click();
    await page.waitForTimeout(300); // the time it takes to move to the search box
    await search(page).pressSequentially("sonrisa", { delay: 80 });
    await expect(search(page)).toHaveValue("sonrisa");
    await expect(categories(page).getByRole("button", { name: "Tecnología IA" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Diseño digital de sonrisa con IA");
    await expect(page).toHaveURL(/categoria=Tecnolog/);
  });

  test("a search without results explains what to do", async ({ page }) => {
    await search(page).fill("xylofón cuántico");
    await expect(page.getByText("No se encontraron artículos")).toBeVisible();
    await expect(page.getByText("Intenta con otros términos de búsqueda o categorías")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByTestId("article-list")).toHaveCount(0);
  });

  test("a filtered URL is rendered filtered by the server", async ({ page }) => {
    await openPage(page, "/blog?q=carillas&categoria=Est%C3%A9tica+Dental");
    await expect(search(page)).toHaveValue("carillas");
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("Carillas o blanqueamiento");
  });

  test("'Leer más' opens the article", async ({ page }) => {
    const card = cards(page).nth(1);
    const title = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("link", { name: /Leer más/ }).click();
    await expect(page).toHaveURL(/\/blog\/implantes-dentales-paso-a-paso$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByRole("link", { name: "Volver al blog" })).toHaveAttribute("href", "/blog");
    await expect(page).toHaveTitle(new RegExp(`^${title.slice(0, 20)}`));
  });

  test("an unknown article answers 404", async ({ page }) => {
    const response = await page.goto("/blog/no-existe-este-articulo");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
  });

  test("'Descargar Gratis' downloads a real PDF", async ({ page }) => {
    const link = page.getByRole("link", {
      name: /Descargar Gratis\s*:\s*Guía Completa de Implantes Dentales/,
    });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    expect(await download.failure()).toBeNull();

    const href = await link.getAttribute("href");
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/pdf");
    const body = await response.body();
    expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(body.length).toBeGreaterThan(1_000);
  });

  test("the closing call to action goes to the landing form", async ({ page }) => {
    const cta = page.getByRole("link", { name: "Agendar Consulta Gratuita" });
    await expect(cta).toHaveAttribute("href", "/#lead-capture");
    await cta.click();
    await expect(page).toHaveURL(/\/#lead-capture$/);
    await expect(page.locator("#lead-capture form")).toBeVisible();
  });

  test("the closing call to action lands with the lead form's heading in view", async ({ page }) => {
    await page.getByRole("link", { name: "Agendar Consulta Gratuita" }).click();
    await expect(page).toHaveURL(/\/#lead-capture$/);
    await expect(
      page.getByRole("heading", { name: "Agenda tu evaluación gratuita", level: 2 }),
    ).toBeInViewport();
  });
});
