import { Suspense } from "react";
import { data } from "react-router";
import type { Route } from "./+types/home";
import { getDb } from "~/db/client.server";
import { FloatingHelper } from "~/features/helper/components/floating-helper";
import { ContactSection } from "~/features/landing/components/contact-section";
import { EbooksSection } from "~/features/landing/components/ebooks-section";
import { Hero } from "~/features/landing/components/hero";
import { LandingHeader } from "~/features/landing/components/landing-header";
import { SiteFooter } from "~/features/landing/components/site-footer";
import { TestimonialsSection } from "~/features/landing/components/testimonials-section";
import { TreatmentsSection } from "~/features/landing/components/treatments-section";
import { loadLeadCaptureSection } from "~/features/leads/components/load-lead-capture-section";
import { leadFormSchema } from "~/features/leads/lead-schema";
import { captureLead } from "~/features/leads/lead-service.server";
import { dentistJsonLd } from "~/features/seo/dentist-json-ld";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { hydrateWhenNear, useLoadOnRouterActivity } from "~/lib/hydrate-when-near";
import { publicWriter } from "~/lib/public-write-limit.server";
import { readForm } from "~/lib/request.server";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) => {
  const clinic = clinicFromMatches(matches);
  return [
    ...pageMeta({
      title: `${clinic.name} | Implantes, estética dental y facial con IA en Santiago`,
      description:
        "Clínica dental y de estética facial en Providencia, Santiago: implantes, carillas, ortodoncia y armonización facial con diagnóstico asistido por IA. Evaluación gratuita.",
      path: "/",
      clinic,
    }),
    { "script:ld+json": dentistJsonLd(clinic) },
  ];
};

export async function action({ request }: Route.ActionArgs) {
  const parsed = leadFormSchema.safeParse(await readForm(request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const outcome = await captureLead(await getDb(), parsed.data, publicWriter(request));
    return data(actionSuccess({ promise: outcome.promise }));
  } catch (error) {
    return appErrorResult(error);
  }
}

// The lead form (its fields, checks and fetcher) is the landing's largest interactive part and sits below the first
// screen: its code comes when the form nears the viewport (ADR 022). The server renders it directly.
const leadCapture = hydrateWhenNear("lead-capture", loadLeadCaptureSection);

export default function Home() {
  useLoadOnRouterActivity(leadCapture);
  return (
    <>
      <LandingHeader />
      <main id="contenido">
        <Hero />
        <TreatmentsSection />
        <TestimonialsSection />
        <EbooksSection />
        <Suspense fallback={<leadCapture.Fallback />}>
          <leadCapture.Component />
        </Suspense>
        <ContactSection />
      </main>
      <SiteFooter />
      <FloatingHelper />
    </>
  );
}
