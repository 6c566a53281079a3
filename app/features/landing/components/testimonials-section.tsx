import { Prepared } from "~/lib/prepared-markup";
import { BadgeCheck, ExternalLink } from "~/components/static-icons";
import { formatDate } from "~/domain/format";
import { useAppData } from "~/lib/app-data";
import { mediaUrl, type MediaConfig } from "~/lib/media";
import { RATING, reviews } from "../landing-content";

/** Width of a rating of 1–5 stars: one 1.125rem tile per star (`.star-rating` in app.css draws the star once). */
const STAR_WIDTHS = [
  "w-0",
  "w-[1.125rem]",
  "w-[2.25rem]",
  "w-[3.375rem]",
  "w-[4.5rem]",
  "w-[5.625rem]",
] as const;

/**
 * A rating as one element: the star is a CSS mask repeated `count` times (`.star-rating`). Drawn as 25 SVGs (even
 * sharing one path through `<use>`) the ratings were 50 of the landing's 450 elements and a tenth of its render
 * (issue 25's profile of `/`).
 */
function Stars({ count }: { count: number }) {
  const stars = Math.max(0, Math.min(5, Math.round(count)));
  return (
    <span
      role="img"
      aria-label={`${stars} de 5 estrellas`}
      className={`star-rating text-amber-500 ${STAR_WIDTHS[stars]}`}
    />
  );
}

export function TestimonialsSection() {
  const { clinic, media } = useAppData();
  return (
    <Prepared
      as="section"
      attributes={{
        id: "testimonios",
        "aria-labelledby": "testimonios-titulo",
        className: "bg-slate-50 py-20",
      }}
      name="testimonials"
      content={TestimonialsContent}
      props={{ reviewsUrl: clinic.reviewsUrl, media }}
    />
  );
}

/** Prepared markup (ADR 055): renders from its props alone. */
function TestimonialsContent({ reviewsUrl, media }: { reviewsUrl: string; media: MediaConfig }) {
  return (
    <div className="mx-auto max-w-6xl px-4">
      <div className="flex flex-wrap items-end justify-between gap-6">
        <div>
          <h2 id="testimonios-titulo" className="text-3xl font-bold">
            Lo que dicen nuestros pacientes
          </h2>
          <p className="mt-2 flex items-center gap-2 text-slate-700">
            <Stars count={5} />
            <span>
              <strong className="text-ink">{RATING}/5</strong> en Google Reviews
            </span>
          </p>
        </div>
        <a
          href={reviewsUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-5 py-2.5 font-semibold hover:bg-slate-100"
        >
          Ver Todas las Opiniones
          <ExternalLink className="size-4" />
          <span className="sr-only">(se abre en una pestaña nueva)</span>
        </a>
      </div>
      <ul className="mt-10 grid gap-6 md:grid-cols-2">
        {reviews.map((review) => (
          <li key={review.name} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <div className="flex items-center justify-between gap-3">
              <p className="font-semibold">{review.name}</p>
              <Stars count={review.rating} />
            </div>
            <blockquote className="mt-3 text-slate-700">“{review.text}”</blockquote>
            <p className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
              {review.verified && (
                <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 font-medium text-brand-800">
                  <BadgeCheck className="size-4" /> Verificado
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
  );
}
