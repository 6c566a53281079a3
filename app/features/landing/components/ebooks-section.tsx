import { Link } from "react-router";
import { Prepared } from "~/lib/prepared-markup";
import { BookOpen } from "~/components/static-icons";
import { guides } from "~/content/guides";
import { GuideCover } from "~/features/blog/components/guide-cover";
import { useAppData } from "~/lib/app-data";
import type { MediaConfig } from "~/lib/media";

export function EbooksSection() {
  const { media } = useAppData();
  return (
    <Prepared
      as="section"
      attributes={{ id: "ebooks", "aria-labelledby": "ebooks-titulo", className: "bg-white py-20" }}
      name="ebooks"
      content={EbooksContent}
      props={{ media }}
    />
  );
}

/** Prepared markup (ADR 055): renders from its props alone. */
function EbooksContent({ media }: { media: MediaConfig }) {
  return (
    <div className="mx-auto max-w-6xl px-4">
      <h2 id="ebooks-titulo" className="text-3xl font-bold">
        E-books y guías gratuitas
      </h2>
      <p className="mt-3 max-w-2xl text-slate-600">
        Información clara, escrita por nuestros especialistas, para que tomes decisiones informadas.
      </p>
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {guides.map((guide) => (
          <li
            key={guide.slug}
            className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 shadow-sm"
          >
            <GuideCover guide={guide} media={media} />
            <div className="flex flex-1 flex-col p-5">
              <h3 className="text-lg font-semibold">{guide.title}</h3>
              <p className="mt-1 flex items-center gap-1 text-sm text-slate-600">
                <BookOpen className="size-4" /> {guide.pages} páginas
              </p>
              <Link
                to="/blog"
                className="mt-4 inline-flex justify-center rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
              >
                Descargar Gratis
              </Link>
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-10 text-center">
        <Link
          to="/blog"
          className="rounded-lg border border-slate-300 px-6 py-3 font-semibold hover:bg-slate-50"
        >
          Ver Blog Completo
        </Link>
      </div>
    </div>
  );
}
