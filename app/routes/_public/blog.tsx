import { BookOpen, Download, Search } from "lucide-react";
import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/blog";
import { MediaPicture } from "~/components/media-picture";
import { articles, type ArticleMeta } from "~/content/articles";
import { guides } from "~/content/guides";
import { categoryFilters, filterArticles, parseCategory } from "~/features/blog/article-filter";
import { ArticleDateAndReadTime } from "~/features/blog/components/article-facts";
import { GuideCover } from "~/features/blog/components/guide-cover";
import { useAppData } from "~/lib/app-data";
import { cn } from "~/lib/cn";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Blog y Recursos Gratuitos | Río Clínica",
    description:
      "Guías gratuitas y artículos sobre implantes dentales, carillas, estética facial e inteligencia artificial en odontología.",
    path: "/blog",
    clinic: clinicFromMatches(matches),
  });

export default function Blog() {
  const { media } = useAppData();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.get("q") ?? "";
  const category = parseCategory(searchParams.get("categoria"));
  const filtered = filterArticles(articles, query, category);
  const [first, ...rest] = filtered;
  const featured = first?.featured ? first : undefined;
  const grid = featured ? rest : filtered;

  function update(next: { q?: string; categoria?: string }) {
    const params = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(next)) {
      if (value && value !== "Todos") params.set(key, value);
      else params.delete(key);
    }
    setSearchParams(params, { replace: true, preventScrollReset: true });
  }

  return (
    <>
      <section className="bg-gradient-to-br from-brand-800 to-ink py-16 text-white">
        <div className="mx-auto max-w-6xl px-4">
          <h1 className="text-4xl font-extrabold">Blog y Recursos Gratuitos</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-200">
            Guías descargables y artículos escritos por nuestros especialistas en odontología, estética facial
            e inteligencia artificial.
          </p>
        </div>
      </section>

      <section aria-labelledby="guias-titulo" className="mx-auto max-w-6xl px-4 py-14">
        <h2 id="guias-titulo" className="text-2xl font-bold">
          E-books y Guías Gratuitas
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {/* On phones and desktops alike the first cover is the largest paint above the fold. */}
          {guides.map((guide, index) => (
            <li
              key={guide.slug}
              className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 shadow-sm"
            >
              <GuideCover guide={guide} media={media} priority={index === 0} />
              <div className="flex flex-1 flex-col p-5">
                {/* Beside the cover, never on it: the cover's own title stays readable (issue 24, item 10). */}
                <p className="flex flex-wrap items-center gap-2 text-xs" data-testid="guide-badges">
                  <span className="rounded-full bg-accent px-2.5 py-0.5 font-bold text-white">GRATIS</span>
                  <span className="rounded-full bg-slate-100 px-2.5 py-0.5 font-semibold text-ink ring-1 ring-slate-300">
                    {guide.pages} páginas
                  </span>
                </p>
                <h3 className="mt-3 text-lg font-semibold">{guide.title}</h3>
                <p className="mt-2 flex-1 text-sm text-slate-600">{guide.description}</p>
                <p className="mt-3">
                  <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800">
                    {guide.category}
                  </span>
                </p>
                <a
                  href={`/guias/${guide.slug}.pdf`}
                  download
                  className="mt-4 inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
                >
                  <Download aria-hidden className="size-4" /> Descargar Gratis
                  <span className="sr-only">: {guide.title} (PDF)</span>
                </a>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="blog-titulo" className="bg-slate-50 py-14">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="blog-titulo" className="text-2xl font-bold">
            Blog Especializado
          </h2>
          <Form
            method="get"
            role="search"
            className="mt-6 flex flex-col gap-4 md:flex-row md:items-center"
            onSubmit={(event) => event.preventDefault()}
          >
            <div className="relative md:w-80">
              <label htmlFor="blog-search" className="sr-only">
                Buscar artículos
              </label>
              <Search
                aria-hidden
                className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500"
              />
              <input
                id="blog-search"
                type="search"
                name="q"
                defaultValue={query}
                placeholder="Buscar artículos..."
                onChange={(event) => update({ q: event.target.value })}
                className="w-full rounded-lg border border-slate-300 bg-white py-2.5 pl-9 pr-3 focus:border-brand-700 focus:outline-none"
              />
            </div>
            <div role="group" aria-label="Categorías" className="flex flex-wrap gap-2">
              {categoryFilters.map((value) => (
                <button
                  key={value}
                  type="submit"
                  name="categoria"
                  value={value}
                  aria-pressed={category === value}
                  onClick={() => update({ categoria: value })}
                  className={cn(
                    "rounded-full px-4 py-1.5 text-sm font-medium",
                    category === value
                      ? "bg-brand-700 text-white"
                      : "bg-white text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100",
                  )}
                >
                  {value}
                </button>
              ))}
            </div>
          </Form>

          {filtered.length === 0 ? (
            <div className="mt-12 rounded-2xl bg-white p-10 text-center ring-1 ring-slate-200" role="status">
              <p className="text-lg font-semibold">No se encontraron artículos</p>
              <p className="mt-2 text-slate-600">Intenta con otros términos de búsqueda o categorías</p>
            </div>
          ) : (
            <div className="mt-10 space-y-8" data-testid="article-list">
              {featured && <ArticleCard article={featured} featured />}
              {grid.length > 0 && (
                <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
                  {grid.map((article) => (
                    <li key={article.slug}>
                      <ArticleCard article={article} />
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
      </section>

      <section className="bg-ink py-16 text-center text-white">
        <div className="mx-auto max-w-3xl px-4">
          <h2 className="text-3xl font-bold">¿Listo para dar el siguiente paso?</h2>
          <p className="mt-3 text-slate-200">
            Agenda una evaluación sin costo y resuelve tus dudas con un especialista.
          </p>
          <Link
            to="/#lead-capture"
            className="mt-6 inline-flex rounded-lg bg-accent px-6 py-3 font-semibold text-white hover:bg-red-800"
          >
            Agendar Consulta Gratuita
          </Link>
        </div>
      </section>
    </>
  );
}

// Half of the 6xl container from md up for the featured card; two, then three columns for the others.
const featuredSizes = "(min-width: 1152px) 560px, (min-width: 768px) calc(50vw - 1rem), calc(100vw - 2rem)";
const cardSizes =
  "(min-width: 1152px) 357px, (min-width: 1024px) calc((100vw - 5rem) / 3), (min-width: 768px) calc((100vw - 3.5rem) / 2), calc(100vw - 2rem)";

function ArticleCard({ article, featured }: { article: ArticleMeta; featured?: boolean }) {
  return (
    <article
      className={cn(
        "flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200",
        featured && "md:flex-row",
      )}
      data-testid="article-card"
    >
      <MediaPicture
        file={article.image}
        alt={article.imageAlt}
        sizes={featured ? featuredSizes : cardSizes}
        className={cn("aspect-video w-full bg-slate-100 object-cover", featured && "md:w-1/2")}
      />
      <div className="flex flex-1 flex-col p-6">
        <p className="flex flex-wrap items-center gap-2 text-xs">
          {featured && (
            <span className="rounded-full bg-accent px-2.5 py-0.5 font-bold text-white">Destacado</span>
          )}
          <span className="rounded-full bg-brand-50 px-2.5 py-0.5 font-medium text-brand-800">
            {article.category}
          </span>
        </p>
        <h3 className={cn("mt-3 font-bold", featured ? "text-2xl" : "text-lg")}>{article.title}</h3>
        <p className="mt-2 flex-1 text-slate-600">{article.excerpt}</p>
        <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          <ArticleDateAndReadTime article={article} />
          <span className="inline-flex items-center gap-1">
            <BookOpen aria-hidden className="size-4" /> {article.author}
          </span>
        </p>
        <Link
          to={`/blog/${article.slug}`}
          className="mt-4 inline-flex w-fit rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold hover:bg-slate-50"
        >
          Leer más<span className="sr-only">: {article.title}</span>
        </Link>
      </div>
    </article>
  );
}
