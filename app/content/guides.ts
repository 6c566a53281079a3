export interface GuideMeta {
  slug: string;
  title: string;
  description: string;
  category: string;
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
      "Todo lo que necesitas saber antes, durante y después de un tratamiento con implantes: evaluación, etapas, cuidados, riesgos y preguntas para tu especialista.",
    category: "Implantología",
    pages: 45,
    image: "guia-implantes.webp",
    imageAlt: "Portada de la Guía Completa de Implantes Dentales con un modelo de implante y corona",
  },
  {
    slug: "estetica-facial-avanzada",
    title: "Estética Facial Avanzada",
    description:
      "Conoce los tratamientos faciales mínimamente invasivos, cómo se relacionan con tu sonrisa y qué considerar para elegirlos con seguridad y expectativas realistas.",
    category: "Estética Facial",
    pages: 38,
    image: "guia-estetica-facial.webp",
    imageAlt: "Portada de la guía Estética Facial Avanzada con el rostro sonriente de una paciente",
  },
  {
    slug: "carillas-estetica-dental",
    title: "Carillas y Estética Dental",
    description:
      "Compara blanqueamiento, carillas de resina y de cerámica, conoce el proceso paso a paso y aprende a cuidar tu nueva sonrisa para que dure muchos años.",
    category: "Estética Dental",
    pages: 32,
    image: "guia-carillas.webp",
    imageAlt: "Portada de la guía Carillas y Estética Dental con carillas de cerámica y una guía de colores",
  },
];
