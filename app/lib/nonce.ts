import { createContext, use } from "react";

/** The CSP nonce of the current document; empty in the browser, where it is not needed after hydration. */
export const NonceContext = createContext("");

export function useNonce() {
  return use(NonceContext);
}
