import { Calendar, Clock } from "lucide-react";
import type { ArticleMeta } from "~/content/articles";
import { formatDate } from "~/domain/format";

/** An article's date and reading time, as shown on its card and on its page. */
export function ArticleDateAndReadTime({ article }: { article: ArticleMeta }) {
  return (
    <>
      <span className="inline-flex items-center gap-1">
        <Calendar aria-hidden className="size-4" />
        <time dateTime={article.date}>{formatDate(article.date)}</time>
      </span>
      <span className="inline-flex items-center gap-1">
        <Clock aria-hidden className="size-4" /> {article.readTimeMinutes} min de lectura
      </span>
    </>
  );
}
