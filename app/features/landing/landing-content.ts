/** Static copy of the landing page (the texts and claims the clinic's specification gives). */

export const claims = [
  { value: "18", suffix: " años", label: "de experiencia" },
  { value: "20.000", suffix: "+", label: "pacientes felices" },
  { value: "94", suffix: "%", label: "de precisión IA" },
] as const;

export const treatmentCards = [
  {
    title: "Implantes dentales",
    text: "Planificación 3D guiada por IA para reemplazar dientes perdidos con precisión y menos molestias.",
  },
  {
    title: "Carillas y estética dental",
    text: "Diseño digital de sonrisa: ves una simulación de tu resultado antes de comenzar.",
  },
  {
    title: "Estética facial",
    text: "Armonización facial, toxina botulínica y ácido hialurónico con criterio médico y resultados naturales.",
  },
  {
    title: "Ortodoncia",
    text: "Brackets y alineadores invisibles, con seguimiento digital de cada etapa.",
  },
  {
    title: "Diagnóstico con IA",
    text: "Análisis de radiografías asistido por inteligencia artificial, siempre validado por tu especialista.",
  },
  {
    title: "Odontología general",
    text: "Limpiezas, restauraciones, endodoncia y prevención para toda la familia.",
  },
] as const;

export const reviews = [
  {
    name: "Carolina M.",
    rating: 5,
    text: "Me hice dos implantes y el proceso fue clarísimo desde la primera evaluación. Me mostraron en 3D cómo quedaría todo y no tuve dolor.",
    verified: true,
    date: "2024-01-08",
  },
  {
    name: "Rodrigo P.",
    rating: 5,
    text: "Excelente atención. Las carillas quedaron naturales y el equipo respondió todas mis dudas por WhatsApp, incluso después del tratamiento.",
    verified: true,
    date: "2023-12-14",
  },
  {
    name: "Francisca T.",
    rating: 5,
    text: "Llegué con mucho miedo al dentista y me trataron con una paciencia enorme. Puntuales, limpios y muy profesionales.",
    verified: true,
    date: "2023-11-27",
  },
  {
    name: "Ignacio V.",
    rating: 5,
    text: "La armonización facial fue sutil, justo lo que quería. Me explicaron riesgos y cuidados con calma y el control posterior fue impecable.",
    verified: true,
    date: "2023-10-30",
  },
] as const;

export const RATING = "4.9";

/** The landing footer's columns; a `#…` link is a section of the landing itself (the footer is only there). */
export const footerColumns = [
  {
    title: "Servicios",
    links: [
      { label: "Implantes dentales", href: "#tratamientos" },
      { label: "Carillas y estética dental", href: "#tratamientos" },
      { label: "Estética facial", href: "#tratamientos" },
      { label: "Ortodoncia", href: "#tratamientos" },
    ],
  },
  {
    title: "IA Dental",
    links: [
      { label: "Diagnóstico con IA", href: "/blog/inteligencia-artificial-diagnostico-dental" },
      { label: "Diseño digital de sonrisa", href: "/blog/diseno-digital-de-sonrisa-con-ia" },
      { label: "Asesor virtual", href: "/auth" },
      { label: "Portal Paciente", href: "/auth" },
    ],
  },
  {
    title: "Recursos",
    links: [
      { label: "Blog y e-books", href: "/blog" },
      { label: "Agendar evaluación", href: "#lead-capture" },
      { label: "Política de Privacidad", href: "/politica-privacidad" },
      { label: "Términos de Servicio", href: "/terminos-servicio" },
    ],
  },
] as const;
