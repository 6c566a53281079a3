/** Media come from a configurable platform URL carrying the account_id query (spec 000 §2). */
export interface MediaConfig {
  baseUrl: string;
  accountId: string;
}

export function mediaUrl(config: MediaConfig, file: string): string {
  const base = config.baseUrl.replace(/\/+$/, "");
  return `${base}/${encodeURIComponent(file)}?account_id=${encodeURIComponent(config.accountId)}`;
}
