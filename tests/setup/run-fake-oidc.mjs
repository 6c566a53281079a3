// Standalone fake Google for manual runs and Playwright:
//   FAKE_OIDC_PORT=3290 FAKE_OIDC_REDIRECT_URIS=http://localhost:3210/api/auth/callback/google \
//     node tests/setup/run-fake-oidc.mjs
import { startFakeOidcFromEnv } from "../../app/integrations/google/oidc-fake.mjs";

const oidc = await startFakeOidcFromEnv();
console.log(`fake oidc ready ${oidc.issuer}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await oidc.close();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
