import { BackLink } from "~/components/back-link";

interface LegalPageProps {
  title: string;
  html: string;
  actions: React.ReactNode;
}

/** Shared frame of the privacy policy and the terms (shown without the site header; a link leads home). */
export function LegalPage({ title, html, actions }: LegalPageProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <BackLink to="/">Volver al inicio</BackLink>
      <h1 className="mt-6 text-3xl font-extrabold sm:text-4xl">{title}</h1>
      {/* Our own legal text (markdown from app/content/legal), rendered on the server. */}
      <div className="prose-content mt-6" dangerouslySetInnerHTML={{ __html: html }} />
      <div className="mt-12 flex flex-wrap gap-3 border-t border-slate-200 pt-8">{actions}</div>
    </main>
  );
}
