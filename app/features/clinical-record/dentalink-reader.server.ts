import {
  createDentalinkClient,
  type DentalinkClient,
} from "~/integrations/dentalink/dentalink-client.server";
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
 * The portal's one way to Dentalink. Until the shared Dentalink settings exist (another area owns `DENTALINK_*`),
 * this is the client in mock mode with the spec's delays, created once per process (its breaker and catalogue
 * cache live in the instance). At merge, build both from the shared settings here and nowhere else.
 */
export function dentalinkReader(): DentalinkReader {
  if (!current) {
    const client = createDentalinkClient({});
    current = { client, files: createDentalinkFileFetcher({ mode: client.mode }) };
  }
  return current;
}

/** Tests: read through another client (the fake, or mock mode without delays); `undefined` restores the default. */
export function setDentalinkReader(reader: DentalinkReader | undefined): void {
  current = reader;
}
