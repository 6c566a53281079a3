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

/** FAKE_OIDC_PORT (3290), FAKE_OIDC_CLIENT_ID ("clinica-test"), FAKE_OIDC_CLIENT_SECRET ("clinica-test-secret"), FAKE_OIDC_REDIRECT_URIS (comma-separated). */
export function startFakeOidcFromEnv(): Promise<FakeOidc>;

/** The `sub` the provider gives an e-mail: `acct-` + the first 16 hex chars of sha256(lower-cased e-mail). */
export function accountIdFor(email: string): string;
