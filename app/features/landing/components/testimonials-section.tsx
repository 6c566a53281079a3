import { BadgeCheck, ExternalLink } from "lucide-react";
import { useId } from "react";
import { formatDate } from "~/domain/format";
import { useAppData } from "~/lib/app-data";
import { mediaUrl } from "~/lib/media";
import { RATING, reviews } from "../landing-content";

/** lucide's "star" outline (the icon the ratings used to draw one by one). */
const STAR_PATH =
  "M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 .294.904l-3.736 " +
  "3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 2.122 0 0 0-1.973 0L6.396 " +
  "21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 " +
  "2.122 0 0 0 1.597-1.16z";

/**
 * The star, drawn once for the whole section; each rating's stars reuse it (<use>). Twenty-five full copies of the
 * icon were a third of the landing page's HTML and a tenth of its render (issue 25's profile of `/`).
 */
function StarDefinition({ id }: { id: string }) {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      <defs>
        <path
          id={id}
          d={STAR_PATH}
          fill="currentColor"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </defs>
    </svg>
  );
}

function Stars({ count, starId }: { count: number; starId: string }) {
  return (
    <span role="img" aria-label={`${count} de 5 estrellas`} className="flex gap-0.5 text-amber-500">
      {Array.from({ length: count }, (_, index) => (
        <svg key={index} aria-hidden="true" viewBox="0 0 24 24" className="size-4">
          <use href={`#${starId}`} />
        </svg>
      ))}
    </span>
  );
}

export function TestimonialsSection() {
  const { clinic, media } = useAppData();
  const starId = `estrella-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  return (
    <section id="testimonios" aria-labelledby="testimonios-titulo" className="bg-slate-50 py-20">
      <StarDefinition id={starId} />
      <div className="mx-auto max-w-6xl px-4">
        <div className="flex flex-wrap items-end justify-between gap-6">
          <div>
            <h2 id="testimonios-titulo" className="text-3xl font-bold">
              Lo que dicen nuestros pacientes
            </h2>
            <p className="mt-2 flex items-center gap-2 text-slate-700">
              <Stars count={5} starId={starId} />
              <span>
                <strong className="text-ink">{RATING}/5</strong> en Google Reviews
              </span>
            </p>
          </div>
          <a
            href={clinic.reviewsUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-5 py-2.5 font-semibold hover:bg-slate-100"
          >
            Ver Todas las Opiniones
            <ExternalLink aria-hidden className="size-4" />
            <span className="sr-only">(se abre en una pestaña nueva)</span>
          </a>
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-2">
          {reviews.map((review) => (
            <li key={review.name} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center justify-between gap-3">
                <p className="font-semibold">{review.name}</p>
                <Stars count={review.rating} starId={starId} />
              </div>
              <blockquote className="mt-3 text-slate-700">“{review.text}”</blockquote>
              <p className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
                {review.verified && (
                  <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 font-medium text-brand-800">
                    <BadgeCheck aria-hidden className="size-4" /> Verificado
                  </span>
                )}
                <span>Google Reviews</span>
                <time dateTime={review.date}>{formatDate(review.date)}</time>
              </p>
            </li>
          ))}
        </ul>
        <figure className="mx-auto mt-12 max-w-3xl">
          <video
            className="aspect-video w-full rounded-2xl bg-ink shadow"
            controls
            preload="none"
            playsInline
            poster={mediaUrl(media, "testimonio-poster.webp")}
            data-testid="testimonial-video"
          >
            <source src={mediaUrl(media, "testimonio.mp4")} type="video/mp4" />
            <track
              kind="captions"
              srcLang="es"
              label="Español"
              src={mediaUrl(media, "testimonio.vtt")}
              default
            />
          </video>
          <figcaption className="mt-3 text-center text-sm text-slate-600">
            Testimonio en video: la experiencia de una paciente con implantes dentales.
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
