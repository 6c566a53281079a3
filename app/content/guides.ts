export interface GuideMeta {
  slug: string;
  title: string;
  description: string;
  category: string;
  /**
   * The pages of the guide's PDF as the download serves it. Issue 24, item 9: the spec's 45, 38 and 32 were never
   * true. `guides.server.test.ts` renders each PDF with the download's own generator and fails if its page count
   * differs from this number; the generator keeps the count independent of the clinic's facts (ADR 045).
   */
  pages: number;
  /** File name under media, e.g. "guia-implantes.webp". */
  image: string;
  imageAlt: string;
}

/** Free downloadable guides. The text of each one lives in `./guides/<slug>.md`. */
export const guides: readonly GuideMeta[] = [
  {
    slug: "guia-implantes-dentales",
    title: "Guía Completa de Implantes Dentales",
    description:
      "Qué es un implante, para quién es y para quién no, cada etapa del tratamiento, la recuperación, los riesgos, los costos en Santiago y las preguntas para tu especialista.",
    category: "Implantología",
    pages: 25,
    image: "guia-implantes.webp",
    imageAlt: "Portada de la Guía Completa de Implantes Dentales con un modelo de implante y corona",
  },
  {
    slug: "estetica-facial-avanzada",
    title: "Estética Facial Avanzada",
    description:
      "Toxina botulínica, ácido hialurónico y bioestimuladores: para quién son, cómo es cada sesión, la recuperación, los riesgos, los costos y cómo elegir con seguridad.",
    category: "Estética Facial",
    pages: 21,
    image: "guia-estetica-facial.webp",
    imageAlt: "Portada de la guía Estética Facial Avanzada con el rostro sonriente de una paciente",
  },
  {
    slug: "carillas-estetica-dental",
    title: "Carillas y Estética Dental",
    description:
      "Compara blanqueamiento, carillas de resina y de cerámica: para quién son, el proceso paso a paso, la adaptación, los riesgos, los costos y cómo cuidar tu sonrisa.",
    category: "Estética Dental",
    pages: 19,
    image: "guia-carillas.webp",
    imageAlt: "Portada de la guía Carillas y Estética Dental con carillas de cerámica y una guía de colores",
  },
];
