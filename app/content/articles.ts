export type ArticleCategory = "Tecnología IA" | "Implantología" | "Estética Dental" | "Estética Facial";

export interface ArticleMeta {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  /** YYYY-MM-DD */
  date: string;
  readTimeMinutes: number;
  category: ArticleCategory;
  /** File name under media, e.g. "articulo-1.webp". */
  image: string;
  imageAlt: string;
  featured: boolean;
}

/** Blog articles, newest first. The body of each one lives in `./articles/<slug>.md`. */
export const articles: readonly ArticleMeta[] = [
  {
    slug: "inteligencia-artificial-diagnostico-dental",
    title: "Inteligencia artificial en el diagnóstico dental: cómo funciona y qué significa para ti",
    excerpt:
      "La IA ya ayuda a detectar caries, pérdida de hueso y otras lesiones en radiografías. Te explicamos cómo funciona, qué beneficios tiene, cuáles son sus límites y por qué la decisión final siempre es de tu dentista.",
    author: "Dra. Valentina Rojas",
    date: "2024-01-15",
    readTimeMinutes: 7,
    category: "Tecnología IA",
    image: "articulo-1.webp",
    imageAlt:
      "Dentista revisando junto a un paciente una radiografía dental analizada por inteligencia artificial en una pantalla",
    featured: true,
  },
  {
    slug: "implantes-dentales-paso-a-paso",
    title: "Implantes dentales paso a paso: desde la evaluación hasta tu nueva sonrisa",
    excerpt:
      "Evaluación, planificación digital, cirugía, osteointegración y corona definitiva: conoce cada etapa del tratamiento con implantes, cuánto suele durar y qué cuidados necesitas para que funcione a largo plazo.",
    author: "Dr. Matías Fuentes",
    date: "2024-01-10",
    readTimeMinutes: 8,
    category: "Implantología",
    image: "articulo-2.webp",
    imageAlt:
      "Modelo anatómico de un implante dental de titanio con su pilar y corona junto a dientes naturales",
    featured: false,
  },
  {
    slug: "carillas-o-blanqueamiento",
    title: "Carillas o blanqueamiento: ¿cuál es la mejor opción para tu sonrisa?",
    excerpt:
      "Ambos tratamientos mejoran la estética de la sonrisa, pero resuelven problemas distintos. Revisa en qué casos conviene cada uno, sus ventajas, sus límites y cuándo tiene sentido combinarlos.",
    author: "Dra. Catalina Morales",
    date: "2024-01-05",
    readTimeMinutes: 6,
    category: "Estética Dental",
    image: "articulo-3.webp",
    imageAlt:
      "Comparación de una guía de colores dentales junto a carillas de cerámica sobre una mesa de trabajo",
    featured: false,
  },
  {
    slug: "armonizacion-facial-toxina-botulinica-acido-hialuronico",
    title: "Armonización facial: lo básico sobre toxina botulínica y ácido hialurónico",
    excerpt:
      "¿Qué hace la toxina botulínica y en qué se diferencia del ácido hialurónico? Te contamos para qué sirve cada uno, cuánto duran sus efectos, qué riesgos existen y cómo elegir un profesional de confianza.",
    author: "Dra. Francisca Soto",
    date: "2023-12-28",
    readTimeMinutes: 7,
    category: "Estética Facial",
    image: "articulo-4.webp",
    imageAlt:
      "Profesional de la salud evaluando las proporciones del rostro de una paciente antes de un tratamiento de armonización facial",
    featured: false,
  },
  {
    slug: "diseno-digital-de-sonrisa-con-ia",
    title: "Diseño digital de sonrisa con IA: ve tu resultado antes de comenzar",
    excerpt:
      "Fotografías, escaneo 3D e inteligencia artificial permiten proyectar una sonrisa acorde a tu rostro y probarla en boca antes de tocar un diente. Así funciona el diseño digital de sonrisa.",
    author: "Dr. Sebastián Araya",
    date: "2023-12-20",
    readTimeMinutes: 5,
    category: "Tecnología IA",
    image: "articulo-5.webp",
    imageAlt:
      "Pantalla con el diseño digital de una sonrisa superpuesto a la fotografía del rostro de un paciente",
    featured: false,
  },
];
