import { randomUUID } from "node:crypto";
import { expect, test, type Page, type Response } from "@playwright/test";
import { openLanding, useOwnClientIp } from "./support";

interface LeadInput {
  name: string;
  phone: string;
  email?: string;
  treatment: string;
  urgency: string;
  budget: string;
  message?: string;
}

function leadForm(page: Page) {
  return page.locator("#lead-capture");
}

async function fillLead(page: Page, lead: LeadInput) {
  const form = leadForm(page);
  await form.getByLabel("Nombre completo").fill(lead.name);
  await form.getByLabel("Teléfono").fill(lead.phone);
  await form.getByLabel("E-mail (opcional)").fill(lead.email ?? "");
  await form.getByLabel("Tratamiento de interés").selectOption({ label: lead.treatment });
  await form.getByLabel("¿Cuándo te gustaría comenzar?").selectOption({ label: lead.urgency });
  await form.getByLabel("Presupuesto estimado").selectOption({ label: lead.budget });
  await form.getByLabel("Mensaje (opcional)").fill(lead.message ?? "");
  await form.getByRole("checkbox", { name: /Acepto que la clínica use estos datos/ }).check();
}

/** Every POST of the lead action ("/?index") answered while the test runs. */
function recordLeadPosts(page: Page) {
  const responses: Response[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (
      response.request().method() === "POST" &&
      /^\/(_\.data|_root\.data)?$/.test(url.pathname) &&
      url.search.includes("index")
    ) {
      responses.push(response);
    }
  });
  return responses;
}

const submit = (page: Page) => leadForm(page).getByRole("button", { name: "Quiero mi evaluación gratuita" });

test.describe("lead capture form", () => {
  // Each test is its own client: the lead form allows 10 leads per client address and hour.
  test.beforeEach(async ({ page, context }) => {
    await useOwnClientIp(context);
    await openLanding(page);
  });

  test("an invalid phone shows the Spanish error and stores nothing", async ({ page }) => {
    const posts = recordLeadPosts(page);
    await fillLead(page, {
      name: "Pedro Soto",
      phone: "12345",
      email: "pedro@correo.cl",
      treatment: "Ortodoncia",
      urgency: "Dentro de 1 mes",
      budget: "$500.000 a $1.500.000",
      message: "Quisiera saber si los alineadores invisibles son una opción en mi caso.",
    });
    await submit(page).click();

    const form = leadForm(page);
    await expect(form.getByText("Ingresa un teléfono chileno válido")).toBeVisible();
    await expect(form.getByLabel("Teléfono")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("lead-success")).toHaveCount(0);
    // The browser checks with the action's own schema (ADR 013), so the refused lead is never sent.
    expect(posts.map((response) => response.status())).toEqual([]);
    // The form is still there with what the person typed.
    await expect(form.getByLabel("Nombre completo")).toHaveValue("Pedro Soto");
    await expect(submit(page)).toBeEnabled();
  });

  test("a warm lead is promised contact within 2 to 4 hours", async ({ page }) => {
    await fillLead(page, {
      name: "Josefa Muñoz",
      phone: "9 8765 4321",
      treatment: "Ortodoncia",
      urgency: "Dentro de 1 mes",
      budget: "$500.000 a $1.500.000",
      message:
        "Tengo los dientes de abajo apiñados y me gustaría saber si puedo usar alineadores invisibles en vez de brackets.",
    });
    await submit(page).click();
    const success = page.getByTestId("lead-success");
    await expect(success).toBeVisible();
    await expect(success).toContainText("Recibimos tu solicitud");
    await expect(success).toContainText("2 a 4 horas");
    await expect(success).not.toContainText("15 minutos");
    await expect(leadForm(page).locator("form")).toHaveCount(0);
  });

  test("a cold lead is promised contact within 24 to 48 hours", async ({ page }) => {
    await fillLead(page, {
      name: "Luis Pérez",
      phone: "+56 2 2345 6780",
      treatment: "Evaluación general",
      urgency: "Solo estoy evaluando",
      budget: "Prefiero consultarlo",
      message: "Solo consulta.",
    });
    await submit(page).click();
    const success = page.getByTestId("lead-success");
    await expect(success).toBeVisible();
    await expect(success).toContainText("24 a 48 horas");
    await expect(success).toContainText("guías gratuitas");

    // "Enviar otra solicitud" brings back an empty form.
    await success.getByRole("button", { name: "Enviar otra solicitud" }).click();
    await expect(submit(page)).toBeVisible();
    await expect(leadForm(page).getByLabel("Nombre completo")).toHaveValue("");
    await expect(page.getByTestId("lead-success")).toHaveCount(0);
  });

  test("a double click on submit gives one success and no error", async ({ page }) => {
    const posts = recordLeadPosts(page);
    await fillLead(page, {
      name: "Andrea Rojas",
      phone: "+56 9 7654 3210",
      treatment: "Estética dental y facial",
      urgency: "En 3 meses",
      budget: "Hasta $500.000",
      message: "Me interesan las carillas.",
    });
    await submit(page).dblclick();

    const success = page.getByTestId("lead-success");
    await expect(success).toBeVisible();
    await expect(success).toHaveCount(1);
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(posts.length).toBeGreaterThanOrEqual(1);
    for (const response of posts) expect(response.status()).toBe(200);
    // Still exactly one success once every request has settled.
    await page.waitForLoadState("networkidle");
    await expect(success).toHaveCount(1);
    await expect(success).toContainText("Recibimos tu solicitud");
  });

  test("the 11th lead from one connection within an hour is refused with the clinic's phone", async ({
    page,
    context,
  }) => {
    // Ten leads from this client (the context's extra headers carry its address), sent as the form without
    // JavaScript would send them.
    for (let index = 0; index < 10; index += 1) {
      const response = await context.request.post("/?index", {
        form: {
          submissionId: randomUUID(),
          name: "Prueba Límite",
          phone: `+569${10_000_000 + Math.floor(Math.random() * 89_999_999)}`,
          treatment: "evaluacion",
          urgency: "evaluando",
          budget: "consultar",
          consent: "on",
          source: "web",
        },
      });
      expect(response.status(), `lead ${index + 1}`).toBe(200);
    }
    const posts = recordLeadPosts(page);
    await fillLead(page, {
      name: "Undécima Persona",
      phone: "+56 9 6543 2109",
      treatment: "Ortodoncia",
      urgency: "En 3 meses",
      budget: "Hasta $500.000",
    });
    await submit(page).click();
    const alert = leadForm(page).getByRole("alert");
    await expect(alert).toContainText("Recibimos demasiadas solicitudes desde tu conexión");
    await expect(alert).toContainText(/llámanos al \+56 \d/);
    await expect(page.getByTestId("lead-success")).toHaveCount(0);
    expect(posts.map((response) => response.status())).toEqual([429]);
    await expect(leadForm(page).getByLabel("Nombre completo")).toHaveValue("Undécima Persona");
  });

  test("the consent box is required", async ({ page }) => {
    const form = leadForm(page);
    await form.getByLabel("Nombre completo").fill("Sin Consentimiento");
    await form.getByLabel("Teléfono").fill("+56 9 1234 5678");
    await form.getByLabel("Tratamiento de interés").selectOption({ label: "Implantes dentales" });
    await form.getByLabel("¿Cuándo te gustaría comenzar?").selectOption({ label: "En 3 meses" });
    await form.getByLabel("Presupuesto estimado").selectOption({ label: "Hasta $500.000" });
    await submit(page).click();
    const consent = form.getByRole("checkbox", { name: /Acepto que la clínica use estos datos/ });
    expect(await consent.evaluate((element: HTMLInputElement) => element.validity.valueMissing)).toBe(true);
    await expect(page.getByTestId("lead-success")).toHaveCount(0);
  });
});

test.describe("lead form code loaded when the form nears the viewport (ADR 022)", () => {
  test("the form stays server HTML until scrolled near, then hydrates and checks in the browser", async ({
    page,
    context,
  }) => {
    await useOwnClientIp(context);
    const chunkRequests: string[] = [];
    page.on("request", (request) => {
      if (/\/assets\/lead-capture-section-[\w-]+\.js$/.test(request.url())) chunkRequests.push(request.url());
    });
    const posts = recordLeadPosts(page);
    await page.goto("/");
    const hasReactProps = (selector: string) =>
      page
        .locator(selector)
        .evaluate((element) => Object.keys(element).some((name) => name.startsWith("__reactProps$")));
    // The page above the form hydrates (the header's menu button gets React's props)...
    await expect.poll(() => hasReactProps("header button")).toBe(true);
    // ...while the form, a screen and more below, is still the server's HTML and its code was not fetched.
    await page.waitForTimeout(300);
    expect(await hasReactProps("#lead-capture form")).toBe(false);
    expect(chunkRequests).toEqual([]);

    await leadForm(page).scrollIntoViewIfNeeded();
    await expect.poll(() => chunkRequests.length).toBe(1);
    await expect.poll(() => hasReactProps("#lead-capture form")).toBe(true);
    // Hydrated: the browser's check answers in Spanish and nothing is sent.
    await leadForm(page).getByLabel("Nombre completo").fill("Ana Pérez");
    await leadForm(page).getByLabel("Teléfono").fill("123");
    await leadForm(page).getByLabel("Tratamiento de interés").selectOption({ label: "Implantes dentales" });
    await leadForm(page).getByLabel("¿Cuándo te gustaría comenzar?").selectOption({ label: "En 3 meses" });
    await leadForm(page).getByLabel("Presupuesto estimado").selectOption({ label: "Hasta $500.000" });
    await leadForm(page)
      .getByRole("checkbox", { name: /Acepto que la clínica use estos datos/ })
      .check();
    await submit(page).click();
    await expect(leadForm(page).getByText("Ingresa un teléfono chileno válido")).toBeVisible();
    expect(posts).toEqual([]);
  });
});

test.describe("the lead form survives a client render of its boundary (issue 24, item 1)", () => {
  test("after a hydration mismatch elsewhere on the page the form is still there and submits", async ({
    page,
    context,
  }) => {
    await useOwnClientIp(context);
    const recoverable: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") recoverable.push(message.text());
    });
    // The footer's server text differs from what the browser renders: React gives up hydrating the page and renders
    // it on the client, the lead form's boundary included, while the form's code has not been fetched.
    await page.route(
      (url) => url.pathname === "/",
      async (route) => {
        if (route.request().resourceType() !== "document") return route.continue();
        const response = await route.fetch();
        const html = (await response.text()).replace(
          "Todos los derechos reservados.",
          "Todos los derechos reservados (servidor).",
        );
        await route.fulfill({ response, body: html });
      },
    );
    // The form's code is held back until the test lets it through.
    const { promise: chunkHeld, resolve: releaseChunk } = Promise.withResolvers<void>();
    await page.route(/\/assets\/lead-capture-section-[\w-]+\.js$/, async (route) => {
      await chunkHeld;
      await route.continue();
    });
    await page.goto("/");
    // The client render replaced the server's footer text: the mismatch happened.
    await expect(page.getByText("Todos los derechos reservados.", { exact: false })).toBeVisible();
    await expect(page.getByText("(servidor)")).toHaveCount(0);

    // While its code is held back the boundary shows the server's HTML of the form, never an empty space...
    await expect(submit(page)).toBeVisible();
    await expect(leadForm(page).getByLabel("Nombre completo")).toBeVisible();
    // ...and once the code is in, the form checks and submits as usual.
    releaseChunk();
    await expect
      .poll(() =>
        page
          .locator("#lead-capture form")
          .evaluate((element) => Object.keys(element).some((name) => name.startsWith("__reactProps$"))),
      )
      .toBe(true);
    await fillLead(page, {
      name: "Marta Reyes",
      phone: "9 8123 4567",
      treatment: "Implantes dentales",
      urgency: "Dentro de 1 mes",
      budget: "$500.000 a $1.500.000",
      message: "Me falta una muela y quisiera evaluar un implante.",
    });
    await submit(page).click();
    await expect(page.getByTestId("lead-success")).toBeVisible();
    await expect(page.getByTestId("lead-success")).toContainText("Recibimos tu solicitud");
  });
});

test.describe("the lead form without JavaScript", () => {
  test("a visitor whose browser runs no scripts sees the form where it belongs and sends a lead", async ({
    browser,
  }) => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    await useOwnClientIp(noJs);
    const page = await noJs.newPage();
    await page.goto("/");
    // React streamed the form at the end of the document in a hidden element, to be moved into place by an inline
    // script: without scripts it stayed hidden. It is in the page's own order now, between the guides and contact.
    const form = leadForm(page);
    await expect(form.getByRole("heading", { name: "Agenda tu evaluación gratuita" })).toBeVisible();
    await expect(page.locator("div[hidden] #lead-capture")).toHaveCount(0);
    const order = await page
      .locator("main > section")
      .evaluateAll((sections) => sections.map((section) => section.id));
    expect(order.indexOf("lead-capture")).toBe(order.indexOf("contacto") - 1);

    await fillLead(page, {
      name: "Rosa Sin Scripts",
      phone: "+56 9 5432 1098",
      treatment: "Implantes dentales",
      urgency: "Dentro de 1 mes",
      budget: "$500.000 a $1.500.000",
    });
    await submit(page).click();
    const success = page.getByTestId("lead-success");
    await expect(success).toBeVisible();
    await expect(success).toContainText("Recibimos tu solicitud");
    await noJs.close();
  });
});
