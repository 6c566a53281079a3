/**
 * Spanish words the specs wrote without their accents, which the product must never show that way (issue 24,
 * item 13): "Cerrar Sesion", "no es valido", "Error de conexion". One list, used by the catalogue's unit test and by
 * the e2e scan of the rendered pages. Pure.
 */
export const UNACCENTED_FORMS = [
  "sesion",
  "conexion",
  "valido",
  "valida",
  "invalido",
  "invalida",
  "numerico",
  "sincronizacion",
  "informacion",
  "codigo",
  "electronico",
  "telefono",
  "direccion",
  "contrasena",
  "pagina",
  "ubicacion",
  "atencion",
  "gestion",
  "analisis",
  "busqueda",
  "metricas",
  "notificacion",
  "notificaciones",
  "configuracion",
  "evaluacion",
  "estetica",
  "exito",
  "tambien",
  "aqui",
  "despues",
  "proximo",
  "proxima",
  "revision",
  "accion",
  "opcion",
  "clinica",
  "tecnologia",
  "odontologia",
  "garantia",
  "dias",
  "digito",
  "numero",
  "numeros",
  "mas",
  "telefonico",
  "periodo",
  "cancelacion",
  "confirmacion",
  "actualizacion",
  "verificacion",
  "autenticacion",
] as const;

// Letters (with accents), digits and underscores make words (a template name such as "cita_cancelada_clinica" is an
// identifier shown to staff, not Spanish prose); anything else separates them.
const pattern = new RegExp(`(?<![\\p{L}\\p{N}_@.])(${UNACCENTED_FORMS.join("|")})(?![\\p{L}\\p{N}_])`, "giu");

/**
 * The unaccented forms in a text, each with a few words around it. E-mail addresses and web addresses are left
 * out first (contacto@clinica.example is an address, not a word).
 */
export function unaccentedForms(text: string): string[] {
  const cleaned = text.replace(/\S+@\S+|https?:\/\/\S+|\b[\w-]+\.(example|cl|com|invalid)\S*/g, " ");
  const found: string[] = [];
  for (const match of cleaned.matchAll(pattern)) {
    const at = match.index ?? 0;
    found.push(cleaned.slice(Math.max(0, at - 25), at + match[0].length + 25).replace(/\s+/g, " "));
  }
  return found;
}
