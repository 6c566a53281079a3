import type { MetaDescriptor } from "react-router";
import type { ClinicFacts } from "~/config/clinic";

interface PageMetaInput {
  title: string;
  description: string;
  path: string;
  clinic: ClinicFacts;
  image?: string;
  type?: "website" | "article";
}

/** Title, description, canonical URL and Open Graph tags for one page. */
export function pageMeta({
  title,
  description,
  path,
  clinic,
  image,
  type = "website",
}: PageMetaInput): MetaDescriptor[] {
  const url = new URL(path, clinic.siteUrl).toString();
  const imageUrl = new URL(image ?? "/media/og-image.jpg", clinic.siteUrl).toString();
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: type },
    { property: "og:site_name", content: clinic.name },
    { property: "og:locale", content: "es_CL" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { name: "twitter:card", content: "summary_large_image" },
  ];
}

/** The clinic facts of the root loader, as seen from a route's `meta` function. */
export function clinicFromMatches(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): ClinicFacts {
  const root = matches.find((match) => match?.id === "root")?.loaderData as
    { clinic?: ClinicFacts } | undefined;
  if (!root?.clinic) throw new Error("root loader data missing");
  return root.clinic;
}
