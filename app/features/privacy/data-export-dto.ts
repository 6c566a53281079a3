import type { DataExportStatus } from "~/domain/privacy";

/**
 * What the 'Descargar mis datos' panel and its status endpoint show of an export (access and portability, ADR 037):
 * built field by field from the row, never the row (no file, no lease, no error text).
 */
export interface DataExportView {
  id: string;
  status: DataExportStatus;
  statusLabel: string;
  /** 0–100. */
  progress: number;
  /** What is being read or written now ("Citas", "Armando el archivo ZIP"), while queued or running. */
  step: string | null;
  /** ISO instant and its Santiago wording. */
  requestedAt: string;
  requestedLabel: string;
  /** While ready: until when it can be downloaded (Santiago wording). */
  expiresLabel: string | null;
  /** The file's size in words ("12 KB"), while ready. */
  sizeLabel: string | null;
  /** Why it cannot be downloaded (expired, failed), in Spanish. */
  message: string | null;
  statusUrl: string;
  /** Only while ready. */
  downloadUrl: string | null;
}

export interface ExportPanelData {
  /** Newest first. */
  exports: DataExportView[];
  /** The export being built (queued or running), if any: a new request returns it. */
  active: DataExportView | null;
  /** False once the daily limit is reached; `limitMessage` then says why. */
  canRequest: boolean;
  limitMessage: string | null;
}
