import type { ArticleCategory, ArticleMeta } from "~/content/articles";

export const categoryFilters = [
  "Todos",
  "Tecnología IA",
  "Implantología",
  "Estética Dental",
  "Estética Facial",
] as const;
export type CategoryFilter = (typeof categoryFilters)[number];

export function parseCategory(value: string | null): CategoryFilter {
  return categoryFilters.find((category) => category === value) ?? "Todos";
}

/** The blog's case-insensitive search on title or excerpt, combined with the category buttons. */
export function filterArticles<T extends Pick<ArticleMeta, "title" | "excerpt" | "category">>(
  list: readonly T[],
  query: string,
  category: CategoryFilter,
): T[] {
  const needle = query.trim().toLocaleLowerCase("es-CL");
  return list.filter(
    (article) =>
      (category === "Todos" || article.category === (category as ArticleCategory)) &&
      (!needle ||
        article.title.toLocaleLowerCase("es-CL").includes(needle) ||
        article.excerpt.toLocaleLowerCase("es-CL").includes(needle)),
  );
}
