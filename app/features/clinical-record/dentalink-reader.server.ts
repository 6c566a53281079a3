import { dentalinkClient, dentalinkSettings } from "~/features/dentalink-sync/dentalink-settings.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import {
  createDentalinkFileFetcher,
  type DentalinkFileFetcher,
} from "~/integrations/dentalink/dentalink-files.server";

/** What the RUT portal reads from Dentalink: the client's reads and the file downloads. */
export interface DentalinkReader {
  client: DentalinkClient;
  files: DentalinkFileFetcher;
}

let current: DentalinkReader | undefined;

/**
 * The portal's one way to Dentalink: the process's shared client (`DENTALINK_*`; mock mode without a key, with the
 * mock's records in our database) and a file fetcher with the same key, base URL and timeout.
 */
export function dentalinkReader(): DentalinkReader {
  if (!current) {
    const client = dentalinkClient();
    const settings = dentalinkSettings();
    current = {
      client,
      files: createDentalinkFileFetcher({
        mode: client.mode,
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        timeoutMs: settings.timeoutMs,
      }),
    };
  }
  return current;
}

/** Tests: read through another client (the fake, or mock mode without delays); `undefined` restores the default. */
export function setDentalinkReader(reader: DentalinkReader | undefined): void {
  current = reader;
}
