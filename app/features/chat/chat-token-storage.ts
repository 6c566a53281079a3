/**
 * Where the widget keeps a guest's chat tokens: this browser's localStorage, one key per account id. A module of its
 * own so the app shell can clear them (a signed-out browser keeps no chat tokens; ADR 032) without loading the
 * widget's client. Client-safe.
 */
export interface ChatTokens {
  access_token: string;
  refresh_token: string;
  expires_at: string;
}

const PREFIX = "chat_tokens_";

export function storedTokens(accountId: string): ChatTokens | null {
  try {
    const raw = window.localStorage.getItem(PREFIX + accountId);
    return raw ? (JSON.parse(raw) as ChatTokens) : null;
  } catch {
    return null;
  }
}

export function storeTokens(accountId: string, tokens: ChatTokens | null) {
  try {
    if (tokens) window.localStorage.setItem(PREFIX + accountId, JSON.stringify(tokens));
    else window.localStorage.removeItem(PREFIX + accountId);
  } catch {
    // private mode: tokens live only in memory
  }
}

/** Removes every account's chat tokens from this browser (nobody is signed in here any more). */
export function forgetChatTokens() {
  try {
    const keys = Array.from({ length: window.localStorage.length }, (_, index) =>
      window.localStorage.key(index),
    );
    for (const key of keys) if (key?.startsWith(PREFIX)) window.localStorage.removeItem(key);
  } catch {
    // storage unavailable: nothing was kept
  }
}
