import type { ReactNode } from "react";
import { createStaticHandler, createStaticRouter, Outlet, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { MarkupPreparerContext } from "~/lib/prepared-markup";
import { defaultClinic } from "~/config/clinic";
import { createMarkupPreparer } from "~/lib/prepared-markup.server";
import { renderStreamed } from "~/lib/render-streamed.testing";
import { ContactSection } from "~/features/landing/components/contact-section";
import { EbooksSection } from "~/features/landing/components/ebooks-section";
import { Hero } from "~/features/landing/components/hero";
import { LandingHeader } from "~/features/landing/components/landing-header";
import { SiteFooter } from "~/features/landing/components/site-footer";
import { TestimonialsSection } from "~/features/landing/components/testimonials-section";
import { TreatmentsSection } from "~/features/landing/components/treatments-section";
import { LeadCaptureSection } from "~/features/leads/components/lead-capture-section";
import { actionFailure } from "~/lib/base/action-result";

const user = { name: "Camila", emailVerified: true, roles: ["paciente"] };

function rootData(signedIn: boolean) {
  return {
    locale: "es" as const,
    clinic: defaultClinic,
    media: { baseUrl: "/media", accountId: "clinica-demo" },
    user: signedIn ? user : null,
    year: 2026,
  };
}

function Landing() {
  return (
    <>
      <LandingHeader />
      <main id="contenido">
        <Hero />
        <TreatmentsSection />
        <TestimonialsSection />
        <EbooksSection />
        <LeadCaptureSection />
        <ContactSection />
      </main>
      <SiteFooter />
    </>
  );
}

/** The page as production renders it: React's streaming renderer inside a data router whose root loader answered. */
async function streamed(
  page: () => ReactNode,
  data: unknown,
  preparer: ReturnType<typeof createMarkupPreparer> | null,
  post?: { answer: unknown },
) {
  const routes = [
    {
      id: "root",
      path: "/",
      loader: () => data,
      Component: Outlet,
      children: [{ index: true, Component: page, action: () => post?.answer }],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(
    post
      ? new Request("http://localhost/?index", { method: "POST", body: new URLSearchParams({ name: "x" }) })
      : new Request("http://localhost/"),
  );
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  const tree = <StaticRouterProvider router={router} context={context} hydrate={false} />;
  return renderStreamed(
    preparer ? <MarkupPreparerContext value={preparer}>{tree}</MarkupPreparerContext> : tree,
  );
}

describe("the landing's prepared sections (ADR 055)", () => {
  for (const signedIn of [false, true]) {
    it(`are byte for byte what React renders of them, ${signedIn ? "signed in" : "anonymous"}`, async () => {
      const preparer = createMarkupPreparer();
      const rendered = await streamed(Landing, rootData(signedIn), null);
      const prepared = await streamed(Landing, rootData(signedIn), preparer);
      // Nine parts were prepared (header bar, phone menu, hero text, treatments, testimonials, e-books, lead form,
      // contact, footer): the
      // comparison is not moot.
      expect(preparer.size()).toBe(9);
      // The lead form's fields carry their own ids (useId would answer by the tree the preparer renders in).
      expect(prepared).toContain('<label for="lead-phone"');
      expect(prepared).toContain('aria-describedby="lead-phone-hint"');
      expect(prepared).not.toMatch(/id="_R_/);
      expect(prepared).toBe(rendered);
      expect(prepared).toContain(signedIn ? ">Ir a Mi Portal</a>" : ">Iniciar Sesión</a>");
      // The parts' router links keep the page's hrefs.
      expect(prepared).toContain('href="/blog" data-discover="true">Ver Blog Completo</a>');
      expect(prepared).toContain(
        'href="/politica-privacidad" data-discover="true">Política de Privacidad</a>',
      );
    });
  }

  it("follow their props: the year, the clinic's facts and the visitor's state each give their own markup", async () => {
    const preparer = createMarkupPreparer();
    const anonymous = await streamed(Landing, rootData(false), preparer);
    const nextYear = await streamed(Landing, { ...rootData(false), year: 2027 }, preparer);
    const moved = await streamed(
      Landing,
      { ...rootData(false), clinic: { ...defaultClinic, address: "Av. Apoquindo 1234, Las Condes" } },
      preparer,
    );
    expect(anonymous).toContain("© <!-- -->2026");
    expect(nextYear).toContain("© <!-- -->2027");
    expect(nextYear).not.toContain("© <!-- -->2026");
    expect(moved).toContain("Av. Apoquindo 1234, Las Condes");
    expect(moved).not.toContain(defaultClinic.address);
  });

  it("renders the answer to a form post (without JavaScript) for that visitor alone: it is not kept", async () => {
    const preparer = createMarkupPreparer();
    await streamed(Landing, rootData(false), preparer);
    const kept = preparer.size();
    const answer = actionFailure("VALIDATION", "Revisa los campos marcados.", {
      phone: ["Ingresa un teléfono chileno válido."],
    });
    const prepared = await streamed(Landing, rootData(false), preparer, { answer });
    const rendered = await streamed(Landing, rootData(false), null, { answer });
    expect(prepared).toBe(rendered);
    expect(prepared).toContain('aria-describedby="lead-phone-hint lead-phone-error"');
    expect(prepared).toContain("Ingresa un teléfono chileno válido.");
    expect(preparer.size()).toBe(kept);
    // The next visitor gets the empty form again.
    const next = await streamed(Landing, rootData(false), preparer);
    expect(next).not.toContain("Ingresa un teléfono chileno válido.");
  });
});
