export interface FakeOidc {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  /** `${issuer}/.well-known/openid-configuration` */
  discoveryUrl: string;
  close(): Promise<void>;
}

export interface FakeOidcOptions {
  /** 0 picks a free port; the issuer then carries the real one. */
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export function startFakeOidc(options: FakeOidcOptions): Promise<FakeOidc>;

export interface DemoIdentity {
  /** What the one-click button says, e.g. "Paciente de demostración". */
  label: string;
  email: string;
  given_name: string;
  family_name: string;
}

export interface FakeOidcHandlerOptions {
  /** The public issuer, with the path the handler is mounted at, e.g. `http://localhost:3000/google-demo`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** One-click identities on the sign-in page (demo mode); the free form stays below them. */
  identities?: DemoIdentity[];
}

/** The provider as a Node request handler; mounted under the issuer's path, req.url must come without that path. */
export function createFakeOidcHandler(
  options: FakeOidcHandlerOptions,
): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;

/** FAKE_OIDC_PORT (3290), FAKE_OIDC_CLIENT_ID ("clinica-test"), FAKE_OIDC_CLIENT_SECRET ("clinica-test-secret"), FAKE_OIDC_REDIRECT_URIS (comma-separated). */
export function startFakeOidcFromEnv(): Promise<FakeOidc>;

/** The `sub` the provider gives an e-mail: `acct-` + the first 16 hex chars of sha256(lower-cased e-mail). */
export function accountIdFor(email: string): string;
