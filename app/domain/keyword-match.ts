/**
 * How the site's rule-based assistants (the landing helper "Rio", the portal's Asesor Virtual) recognise a keyword
 * in what a person wrote: whole words, accents and case folded. A substring match got "me duele ahora" the
 * appointment answer, because "hora" is inside "ahora" (issue 24, item 2). Pure.
 *
 * A keyword is one or more words. A trailing `*` marks a stem that may go on ("implante*" matches "implantes",
 * "hinchad*" matches "hinchada" and "hinchado"); without it the keyword must end where the word ends.
 */

/** Lower-case and strip accents so "Implántes" matches "implante". */
export function normalizeForMatching(text: string): string {
  return text
    .toLocaleLowerCase("es-CL")
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "");
}

const compiled = new Map<string, RegExp>();

function keywordPattern(keyword: string): RegExp {
  let pattern = compiled.get(keyword);
  if (!pattern) {
    const stem = keyword.endsWith("*");
    const words = normalizeForMatching(stem ? keyword.slice(0, -1) : keyword)
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    // Letters and digits are word characters; anything else (spaces, punctuation, emoji) separates words.
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${words.join("\\s+")}${stem ? "" : "(?![\\p{L}\\p{N}])"}`, "u");
    compiled.set(keyword, pattern);
  }
  return pattern;
}

/** Whether `normalized` (already passed through `normalizeForMatching`) holds the keyword as a whole word. */
export function hasKeyword(normalized: string, keyword: string): boolean {
  return keywordPattern(keyword).test(normalized);
}

/** Whether it holds any of the keywords. */
export function hasAnyKeyword(normalized: string, keywords: readonly string[]): boolean {
  return keywords.some((keyword) => hasKeyword(normalized, keyword));
}
