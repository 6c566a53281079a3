import { useEffect, useRef } from "react";
import { MediaPicture } from "~/components/media-picture";
import { Prepared } from "~/lib/prepared-markup";
import { useAppData } from "~/lib/app-data";
import { mediaUrl } from "~/lib/media";
import { claims } from "../landing-content";
import { PortalLink } from "./portal-link";

export function Hero() {
  const { media, clinic, user } = useAppData();
  const video = useRef<HTMLVideoElement>(null);
  const poster = useRef<HTMLImageElement>(null);

  // The loop starts only after hydration and never for people who asked for less motion; until then (and without
  // JavaScript) the poster picture is shown, which also keeps the first paint light. The video takes the rendition
  // the picture already chose as its poster, so nothing is fetched twice.
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (poster.current?.currentSrc) element.poster = poster.current.currentSrc;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    const sync = () => {
      if (reduced.matches) element.pause();
      else void element.play().catch(() => undefined);
    };
    sync();
    reduced.addEventListener("change", sync);
    return () => reduced.removeEventListener("change", sync);
  }, []);

  return (
    <section id="home" className="relative isolate overflow-hidden bg-ink text-white">
      {/* One translucent layer: the video, opaque once it plays, covers the picture beneath it. */}
      <div className="absolute inset-0 -z-10 opacity-60">
        <MediaPicture
          ref={poster}
          file="hero-poster.webp"
          alt=""
          // Drawn wider than the viewport on phones (it covers a tall section), but it is a soft gradient under a
          // dark overlay that bears the upscaling.
          sizes="100vw"
          priority
          className="absolute inset-0 size-full object-cover"
        />
        <video
          ref={video}
          className="absolute inset-0 size-full object-cover"
          muted
          loop
          playsInline
          preload="none"
          aria-hidden
          tabIndex={-1}
          data-testid="hero-video"
        >
          <source src={mediaUrl(media, "hero.webm")} type="video/webm" />
          <source src={mediaUrl(media, "hero.mp4")} type="video/mp4" />
        </video>
      </div>
      <div className="absolute inset-0 -z-10 bg-gradient-to-r from-ink via-ink/85 to-ink/40" />
      {/* On a phone the first screen ends with the calls to action, above the fixed helpers (issue 24, item 7): a
          tighter top, headline and lead keep them within a 375 × 667 screen. */}
      <Prepared
        as="div"
        attributes={{ className: "mx-auto max-w-6xl px-4 pt-10 pb-16 sm:py-28" }}
        name="hero-text"
        content={HeroText}
        props={{ tagline: clinic.tagline, signedIn: user !== null }}
      />
    </section>
  );
}

/** Prepared markup (ADR 055): renders from its props alone. */
function HeroText({ tagline, signedIn }: { tagline: string; signedIn: boolean }) {
  return (
    <>
      <p className="text-sm font-semibold uppercase tracking-wider text-brand-100">{tagline}</p>
      <h1 className="mt-4 max-w-3xl text-3xl font-extrabold leading-tight sm:text-5xl">
        Odontología y estética facial con inteligencia artificial en Santiago
      </h1>
      <p className="mt-4 max-w-2xl text-base text-slate-200 sm:mt-5 sm:text-lg">
        Diagnóstico asistido por IA, planificación digital y especialistas con años de experiencia para que
        sepas exactamente qué necesitas, cuánto cuesta y cómo quedará tu sonrisa.
      </p>
      <div className="mt-6 flex flex-wrap gap-3 sm:mt-8">
        <a
          href="#lead-capture"
          className="rounded-lg bg-accent px-6 py-3 font-semibold text-white shadow hover:bg-red-800"
        >
          Agenda tu evaluación gratuita
        </a>
        <PortalLink
          signedIn={signedIn}
          className="rounded-lg border border-white/70 px-6 py-3 font-semibold text-white hover:bg-white/10"
          signedInLabel="Mi Portal"
          anonymousLabel="Portal Paciente"
        />
      </div>
      {/* On a phone the three cards share 343 px: smaller figures and padding keep "20.000+" in its card. */}
      <dl className="mt-12 grid max-w-2xl grid-cols-3 gap-2 sm:gap-4">
        {claims.map((claim) => (
          <div key={claim.label} className="min-w-0 rounded-xl bg-white/10 p-3 sm:p-4">
            <dt className="text-xs text-slate-200 sm:text-sm">{claim.label}</dt>
            <dd className="order-first text-xl font-extrabold tracking-tight whitespace-nowrap sm:text-3xl">
              {claim.value}
              {claim.suffix}
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
