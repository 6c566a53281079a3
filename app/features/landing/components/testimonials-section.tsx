import { BadgeCheck, ExternalLink, Star } from "lucide-react";
import { formatDate } from "~/domain/format";
import { useAppData } from "~/lib/app-data";
import { mediaUrl } from "~/lib/media";
import { RATING, reviews } from "../landing-content";

function Stars({ count }: { count: number }) {
  return (
    <span role="img" aria-label={`${count} de 5 estrellas`} className="flex gap-0.5 text-amber-500">
      {Array.from({ length: count }, (_, index) => (
        <Star key={index} aria-hidden className="size-4 fill-current" />
      ))}
    </span>
  );
}

export function TestimonialsSection() {
  const { clinic, media } = useAppData();
  return (
    <section id="testimonios" aria-labelledby="testimonios-titulo" className="bg-slate-50 py-20">
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
                <Stars count={review.rating} />
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
