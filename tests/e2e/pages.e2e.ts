import { expect, test } from "@playwright/test";
import { openPage } from "./support";

test.describe("not-found page", () => {
  test("an unknown path answers 404 with links home and to the portal", async ({ page }) => {
    const response = await page.goto("/no-existe");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
    await expect(page).toHaveTitle(/Página no encontrada/);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "Volver al inicio" })).toHaveAttribute("href", "/");
    await expect(main.getByRole("link", { name: "Ir al Portal de Pacientes" })).toHaveAttribute(
      "href",
      "/auth",
    );
  });

  test("?lang=en is remembered in a cookie and the not-found page is then in English", async ({
    page,
    context,
  }) => {
    const response = await page.goto("/?lang=en");
    expect(response?.status()).toBe(200);
    expect((await response?.headerValue("set-cookie")) ?? "").toMatch(/(^|\n)lang=en;/);
    const cookie = (await context.cookies()).find((item) => item.name === "lang");
    expect(cookie?.value).toBe("en");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    const notFound = await page.goto("/no-existe");
    expect(notFound?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page.getByRole("main").getByRole("link", { name: "Back to home" })).toHaveAttribute(
      "href",
      "/",
    );
  });
});

test.describe("legal pages", () => {
  test("privacy policy: retention, security and the rights request forms", async ({ page }) => {
    const response = await page.goto("/politica-privacidad");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Política de Privacidad");
    const main = page.getByRole("main");
    await expect(main).toContainText("15 años");
    await expect(main).toContainText("dos factores");
    await expect(main.locator('a[href="/eliminar-datos"]').first()).toBeVisible();
    await expect(main.locator('a[href="/devolver-llamada"]').first()).toBeVisible();
    await expect(main.getByRole("link", { name: "Solicitar eliminación de datos" })).toHaveAttribute(
      "href",
      "/eliminar-datos",
    );
    await expect(
      main.getByRole("link", { name: "Ejercer otros derechos o pedir que te llamemos" }),
    ).toHaveAttribute("href", "/devolver-llamada");
  });

  test("terms of service: cancellation, budgets and refunds", async ({ page }) => {
    const response = await page.goto("/terminos-servicio");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Términos de Servicio");
    const main = page.getByRole("main");
    for (const text of ["24 horas", "50%", "30 días", "5 a 10 días hábiles"]) {
      await expect(main).toContainText(text);
    }
    await expect(main.locator('a[href="/politica-privacidad"]').first()).toBeVisible();
    await expect(main.locator('a[href="/"]').first()).toBeVisible();
    await expect(main.getByRole("link", { name: "Política de Privacidad" }).last()).toHaveAttribute(
      "href",
      "/politica-privacidad",
    );
  });
});

test.describe("request forms", () => {
  test("callback request: an invalid phone is refused in Spanish, a valid one is received", async ({
    page,
  }) => {
    await openPage(page, "/devolver-llamada");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Te llamamos");
    await page.getByLabel("Nombre completo").fill("Jorge Castillo");
    await page.getByLabel("Teléfono", { exact: true }).fill("12345");
    await page.getByLabel("¿Cuándo te llamamos?").selectOption({ label: "Tarde (14:00 a 18:00)" });
    await page.getByRole("checkbox", { name: /Declaro que los datos son correctos/ }).check();
    await page.getByRole("button", { name: "Solicitar llamada" }).click();

    await expect(page.getByText("Ingresa un teléfono chileno válido")).toBeVisible();
    await expect(page.getByLabel("Teléfono", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("request-success")).toHaveCount(0);

    await page.getByLabel("Nombre completo").fill("Jorge Castillo");
    await page.getByLabel("Teléfono", { exact: true }).fill("+56 9 5555 1234");
    const consent = page.getByRole("checkbox", { name: /Declaro que los datos son correctos/ });
    if (!(await consent.isChecked())) await consent.check();
    await page.getByRole("button", { name: "Solicitar llamada" }).click();

    const success = page.getByTestId("request-success");
    await expect(success).toBeVisible();
    await expect(success).toContainText("Recibimos tu solicitud de llamada");
    await expect(page.getByText("Ingresa un teléfono chileno válido")).toHaveCount(0);
  });
});

test.describe("technical endpoints and SEO", () => {
  test("/healthz answers JSON with status ok", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  test("/sitemap.xml and /robots.txt", async ({ request }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    expect(sitemap.headers()["content-type"]).toContain("xml");
    const xml = await sitemap.text();
    expect(xml).toContain("<urlset");
    expect(xml).toContain("/blog/implantes-dentales-paso-a-paso</loc>");

    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    expect(robots.headers()["content-type"]).toContain("text/plain");
    const text = await robots.text();
    expect(text).toContain("User-agent: *");
    expect(text).toMatch(/^Sitemap: \S+\/sitemap\.xml$/m);
  });

  test("the home page has language, title, description, Open Graph and Dentist JSON-LD", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "es-CL");
    await expect(page).toHaveTitle(/Río Clínica.+Santiago/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Río Clínica/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/$/);

    const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
    const dentist = scripts.map((text) => JSON.parse(text)).find((data) => data["@type"] === "Dentist");
    expect(dentist, "a JSON-LD script with @type Dentist").toBeTruthy();
    expect(dentist).toMatchObject({ "@context": "https://schema.org", address: { addressCountry: "CL" } });
  });
});
