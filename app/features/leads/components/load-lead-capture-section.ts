/**
 * Fetches the lead form's code (ADR 022). A module of its own: a page that also imports the section statically for
 * the server would otherwise keep it in the page's bundle.
 */
export const loadLeadCaptureSection = () =>
  import("./lead-capture-section").then((module) => module.LeadCaptureSection);
