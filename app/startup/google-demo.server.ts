import { env, GOOGLE_DEMO_PATH, googleSettings, publicBaseUrl } from "~/lib/base/env.server";
import { AUTH_BASE_PATH, GOOGLE_PROVIDER_ID } from "~/lib/auth/auth.server";
import { demoAccounts } from "./demo-accounts.server";

/** What server.mjs mounts at /google-demo in demo mode (issue 24, item 19): the local provider and its identities. */
export interface GoogleDemoMount {
  path: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  identities: Array<{ label: string; email: string; given_name: string; family_name: string }>;
}

const ROLE_LABELS: Record<string, string> = {
  paciente: "Paciente de demostración",
  dentista: "Dentista de demostración",
  asesor: "Asesor de demostración",
  admin: "Administrador de demostración",
};

/**
 * The demo provider's mount, or null outside demo mode or with a real Google configured. Its identities are the demo
 * accounts (Google links to them by their verified e-mail, so each lands where its role does, and a staff account
 * that has enrolled two-factor is asked for its code) and a new person, whose first sign-in creates a patient account.
 */
export function googleDemoMount(current = env()): GoogleDemoMount | null {
  const settings = googleSettings(current);
  if (settings?.mode !== "demo") return null;
  const base = publicBaseUrl(current);
  return {
    path: GOOGLE_DEMO_PATH,
    issuer: `${base}${GOOGLE_DEMO_PATH}`,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    redirectUris: [`${base}${AUTH_BASE_PATH}/callback/${GOOGLE_PROVIDER_ID}`],
    identities: [
      ...demoAccounts.map((account) => ({
        label: `${ROLE_LABELS[account.role] ?? account.role}: ${account.firstName} ${account.lastName}`,
        email: account.email,
        given_name: account.firstName,
        family_name: account.lastName,
      })),
      {
        label: "Paciente nueva: Valentina Rojas",
        email: "valentina.rojas@ejemplo.cl",
        given_name: "Valentina",
        family_name: "Rojas",
      },
    ],
  };
}
