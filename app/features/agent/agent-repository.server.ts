import { asc } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { treatmentsCatalog } from "~/db/schema";

/** The catalogue the agent quotes prices from (never a clinical record: the agent has no access to one). */
export async function catalogueTreatments(db: Database) {
  return db
    .select({
      slug: treatmentsCatalog.slug,
      name: treatmentsCatalog.name,
      description: treatmentsCatalog.description,
      basePrice: treatmentsCatalog.basePrice,
    })
    .from(treatmentsCatalog)
    .orderBy(asc(treatmentsCatalog.basePrice));
}
