import type { ClinicFacts } from "~/config/clinic";

/** schema.org `Dentist` built from the clinic's facts (so search results show the clinic's details). */
export function dentistJsonLd(clinic: ClinicFacts) {
  return {
    "@context": "https://schema.org",
    "@type": "Dentist",
    name: clinic.name,
    description: clinic.tagline,
    url: clinic.siteUrl,
    image: new URL("/media/og-image.jpg", clinic.siteUrl).toString(),
    telephone: clinic.phone,
    email: clinic.email,
    address: {
      "@type": "PostalAddress",
      streetAddress: clinic.streetAddress,
      addressLocality: clinic.locality,
      addressRegion: clinic.region,
      addressCountry: "CL",
    },
    openingHoursSpecification: [
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
        opens: clinic.opens,
        closes: clinic.closes,
      },
    ],
    aggregateRating: { "@type": "AggregateRating", ratingValue: "4.9", bestRating: "5", reviewCount: "4" },
    foundingDate: String(clinic.foundedYear),
    priceRange: "$$",
  };
}
