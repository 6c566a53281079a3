/**
 * How the lead panel's search box is read (DESIGN decision 19, ADR 027). Pure: the database folds case and accents
 * itself (`f_unaccent(lower(…))`, migration 0013), so the terms keep what was typed apart from the rules below.
 */

/** At most this many words are matched; more would only slow the query down without narrowing it usefully. */
export const MAX_SEARCH_TERMS = 6;

const PHONE_CHARACTERS = /^[\d\s+\-().]+$/;

/**
 * The terms that must all match a lead's name, e-mail or phone digits.
 * - A query made only of digits and phone punctuation ('+56 9 1234 5678', '9 1234-5678', '(9) 1234.5678') is one
 *   term: its digits, since phones are matched as bare digits.
 * - Otherwise each word is a term ('gonz rojas' → ['gonz', 'rojas']); a word that is a phone fragment ('1234-5678')
 *   becomes its digits; one-character words are dropped (they match almost every lead and no index can help).
 * - Duplicates are dropped, and at most MAX_SEARCH_TERMS terms are kept.
 */
export function searchTerms(query: string): string[] {
  const trimmed = query.trim();
  if (trimmed === "") return [];
  if (PHONE_CHARACTERS.test(trimmed)) {
    const digits = trimmed.replace(/\D/g, "");
    return digits.length > 0 ? [digits] : [];
  }
  const terms = new Set<string>();
  for (const word of trimmed.split(/\s+/)) {
    const term = PHONE_CHARACTERS.test(word) ? word.replace(/\D/g, "") : word;
    if (term.length < 2) continue;
    terms.add(term);
    if (terms.size === MAX_SEARCH_TERMS) break;
  }
  return [...terms];
}

/** A term as a LIKE pattern that matches it anywhere: `%`, `_` and `\` typed by the user are literal. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}
