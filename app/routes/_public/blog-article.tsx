import { User } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/blog-article";
import { BackLink } from "~/components/back-link";
import { MediaPicture } from "~/components/media-picture";
import { ArticleDateAndReadTime } from "~/features/blog/components/article-facts";
import { articleHtml, findArticle } from "~/features/content/content.server";
import { clinicFacts } from "~/lib/base/env.server";
import { pageMeta } from "~/lib/seo";

export function loader({ params }: Route.LoaderArgs) {
  const article = findArticle(params.slug);
  const html = article && articleHtml(article.slug, clinicFacts());
  if (!article || html === undefined) throw data(null, { status: 404 });
  return { article, html, clinic: clinicFacts() };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? pageMeta({
        title: `${loaderData.article.title} | Blog Río Clínica`,
        description: loaderData.article.excerpt,
        path: `/blog/${loaderData.article.slug}`,
        clinic: loaderData.clinic,
        image: `/media/${loaderData.article.image}`,
        type: "article",
      })
    : [];

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  const { article, html } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <BackLink to="/blog">Volver al blog</BackLink>
      <p className="mt-6">
        <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800">
          {article.category}
        </span>
      </p>
      <h1 className="mt-3 text-3xl font-extrabold leading-tight sm:text-4xl">{article.title}</h1>
      <p className="mt-4 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600">
        <span className="inline-flex items-center gap-1">
          <User aria-hidden className="size-4" /> {article.author}
        </span>
        <ArticleDateAndReadTime article={article} />
      </p>
      <MediaPicture
        file={article.image}
        alt={article.imageAlt}
        sizes="(min-width: 768px) 736px, calc(100vw - 2rem)"
        priority
        className="mt-8 aspect-video w-full rounded-2xl bg-slate-100 object-cover"
      />
      {/* Our own markdown, rendered on the server; no user input reaches it. */}
      <div className="prose-content mt-8" dangerouslySetInnerHTML={{ __html: html }} />
      <aside className="mt-12 rounded-2xl bg-brand-50 p-6 text-center">
        <p className="text-lg font-semibold">¿Quieres saber qué tratamiento es para ti?</p>
        <Link
          to="/#lead-capture"
          className="mt-4 inline-flex rounded-lg bg-accent px-6 py-3 font-semibold text-white hover:bg-red-800"
        >
          Agendar Consulta Gratuita
        </Link>
      </aside>
    </article>
  );
}
