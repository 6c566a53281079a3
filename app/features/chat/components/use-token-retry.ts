import { useCallback } from "react";

/**
 * Calls the API with the guest's access token; a refusal as expired asks the parent for a refreshed token and
 * retries once with it.
 */
export function useTokenRetry(token: string | null, requestFreshToken: () => Promise<string | null>) {
  return useCallback(
    async <T>(call: (accessToken: string) => Promise<T>): Promise<T> => {
      if (!token) throw new Error("No refresh token available");
      try {
        return await call(token);
      } catch (failure) {
        if (!(failure instanceof Error) || !/expired access token/.test(failure.message)) throw failure;
        const fresh = await requestFreshToken();
        if (!fresh) throw failure;
        return call(fresh);
      }
    },
    [token, requestFreshToken],
  );
}
