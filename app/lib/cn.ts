import { clsx, type ClassValue } from "clsx";

/** Joins class names. No tailwind-merge (9 KB gzip on every page): callers avoid conflicting utilities. */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
