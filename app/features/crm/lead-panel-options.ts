import type { BadgeTone } from "~/components/ui/badge";
import { treatments } from "~/domain/lead-scoring";
import {
  leadLevelLabels,
  leadLevels,
  leadSourceLabels,
  leadSources,
  treatmentLabels,
} from "~/domain/lead-labels";
import { leadStatuses, leadStatusLabels, type LeadStatus } from "~/domain/lead-pipeline";

// The statuses and their labels are the pipeline's (one list: domain/lead-pipeline.ts); the levels' and sources'
// are domain/lead-labels.ts's.
export { leadStatuses, leadStatusLabels, type LeadStatus };

/** The lead panel's filters, sorts and actions (client-safe). Values are the stored ones. */

export const ALL = "todos";
export const levelFilters = [ALL, ...leadLevels] as const;
export const statusFilters = [ALL, ...leadStatuses] as const;
export type LevelFilter = (typeof levelFilters)[number];
export type StatusFilter = (typeof statusFilters)[number];

export const sourceFilters = [ALL, ...leadSources] as const;
export type SourceFilter = (typeof sourceFilters)[number];
export const sourceFilterLabels: Record<SourceFilter, string> = {
  todos: "Todos los orígenes",
  ...leadSourceLabels,
};

export const treatmentFilters = [ALL, ...treatments] as const;
export type TreatmentFilter = (typeof treatmentFilters)[number];
export const treatmentFilterLabels: Record<TreatmentFilter, string> = {
  todos: "Todos los tratamientos",
  ...treatmentLabels,
};

/** The assignee filter: anyone, the signed-in user ('Mis leads'), nobody, or one staff member by id. */
export const ASSIGNED_TO_ME = "mios";
export const UNASSIGNED = "sin-asignar";

/** The panel's sort orders; the first is the default. */
export const leadSorts = ["recientes", "antiguos", "puntaje", "contacto"] as const;
export type LeadSort = (typeof leadSorts)[number];
export const leadSortLabels: Record<LeadSort, string> = {
  recientes: "Más recientes",
  antiguos: "Más antiguos",
  puntaje: "Mayor puntaje",
  contacto: "Último contacto",
};

export const levelFilterLabels: Record<LevelFilter, string> = {
  todos: "Todos los niveles",
  ...leadLevelLabels,
};
export const statusFilterLabels: Record<StatusFilter, string> = {
  todos: "Todos los estados",
  ...leadStatusLabels,
};

/** The two changes the panel may make, and the status each sets. */
export const leadPanelIntents = ["mark-contacted", "schedule"] as const;
export type LeadPanelIntent = (typeof leadPanelIntents)[number];
export const statusForIntent: Record<LeadPanelIntent, LeadStatus> = {
  "mark-contacted": "contacted",
  schedule: "scheduled",
};

export const levelBadgeTone: Record<string, BadgeTone> = {
  hot: "solid-red",
  warm: "solid-amber",
  cold: "solid-sky",
};
