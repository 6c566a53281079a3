import { useEffect, useState } from "react";

/**
 * A random id per form, created in the browser after hydration (so cached HTML never shares one). A double submit
 * carries the same id and the server stores one row. Without JavaScript the server falls back to its own checks.
 */
export function useSubmissionId(): [string, () => void] {
  const [id, setId] = useState("");
  useEffect(() => setId(crypto.randomUUID()), []);
  return [id, () => setId(crypto.randomUUID())];
}
