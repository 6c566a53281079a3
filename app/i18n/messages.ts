/**
 * The message catalogue (the patients are Chilean): es-CL is the default and complete; en carries the same keys.
 * Long-form content (landing copy, articles, legal texts) lives in `app/content` and is Spanish only.
 */
const es = {
  "nav.home": "Home",
  "nav.treatments": "Tratamientos",
  "nav.ebooks": "E-books",
  "nav.contact": "Contacto",
  "nav.portal": "Portal Paciente",
  "nav.myPortal": "Mi Portal",
  "nav.openMenu": "Abrir menú",
  "nav.closeMenu": "Cerrar menú",
  "nav.mainLabel": "Navegación principal",
  "nav.skipToContent": "Saltar al contenido",
  "shell.start": "Inicio",
  "shell.signOut": "Salir",
  "shell.menu": "Menú",
  "shell.areas": "Mis áreas",
  "shell.patientNav": "Navegación del portal",
  "shell.dashboard": "Dashboard",
  "shell.appointments": "Mis Citas",
  "shell.advisor": "Asesor Virtual",
  "shell.profile": "Mi Perfil",
  "shell.myData": "Mis Datos",
  "shell.record": "Mi Ficha",
  "shell.payments": "Mis Pagos",
  "lang.switch": "English",
  "lang.switchLabel": "Cambiar idioma a inglés",
  "notFound.title": "Página no encontrada",
  "notFound.body": "La página que buscas no existe o ha sido movida.",
  "notFound.home": "Volver al inicio",
  "notFound.portal": "Ir al Portal de Pacientes",
  "error.title": "Unexpected Application Error!",
  "error.body":
    "Ocurrió un error inesperado. Ya quedó registrado; por favor intenta nuevamente en unos minutos o vuelve al inicio.",
  "error.badRequest": "La solicitud no es válida. Revisa los datos e intenta nuevamente.",
  "error.forbidden": "No tienes permiso para ver esta página.",
  "forbidden.title": "No tienes acceso a esta sección",
  "forbidden.bodySignedIn":
    "Tu cuenta no tiene permiso para ver esta página. Si crees que deberías tenerlo, pídeselo a la administración de la clínica.",
  "forbidden.bodySignedOut":
    "Esta sección es solo para cuentas autorizadas. Ingresa con tu cuenta para continuar.",
  "forbidden.myArea": "Ir a mi área",
  "forbidden.signIn": "Ingresar",
  "error.home": "Volver al inicio",
  "form.required": "Este campo es obligatorio.",
  "form.sending": "Enviando...",
} as const;

export type MessageKey = keyof typeof es;
export type Locale = "es" | "en";

const en: Record<MessageKey, string> = {
  "nav.home": "Home",
  "nav.treatments": "Treatments",
  "nav.ebooks": "E-books",
  "nav.contact": "Contact",
  "nav.portal": "Patient Portal",
  "nav.myPortal": "My Portal",
  "nav.openMenu": "Open menu",
  "nav.closeMenu": "Close menu",
  "nav.mainLabel": "Main navigation",
  "nav.skipToContent": "Skip to content",
  "shell.start": "Home",
  "shell.signOut": "Sign out",
  "shell.menu": "Menu",
  "shell.areas": "My areas",
  "shell.patientNav": "Portal navigation",
  "shell.dashboard": "Dashboard",
  "shell.appointments": "My Appointments",
  "shell.advisor": "Virtual Advisor",
  "shell.profile": "My Profile",
  "shell.myData": "My Data",
  "shell.record": "My Record",
  "shell.payments": "My Payments",
  "lang.switch": "Español",
  "lang.switchLabel": "Switch language to Spanish",
  "notFound.title": "Page not found",
  "notFound.body": "The page you are looking for does not exist or has been moved.",
  "notFound.home": "Back to home",
  "notFound.portal": "Go to the Patient Portal",
  "error.title": "Unexpected Application Error!",
  "error.body":
    "Something went wrong. It has been logged; please try again in a few minutes or go back home.",
  "error.badRequest": "The request is not valid. Check the data and try again.",
  "error.forbidden": "You do not have permission to see this page.",
  "forbidden.title": "You do not have access to this section",
  "forbidden.bodySignedIn":
    "Your account is not allowed to see this page. If you think it should be, ask the clinic's administration.",
  "forbidden.bodySignedOut": "This section is for authorised accounts only. Sign in to continue.",
  "forbidden.myArea": "Go to my area",
  "forbidden.signIn": "Sign in",
  "error.home": "Back to home",
  "form.required": "This field is required.",
  "form.sending": "Sending...",
};

export const catalogues: Record<Locale, Record<MessageKey, string>> = { es, en };

export function translate(locale: Locale, key: MessageKey): string {
  return catalogues[locale][key];
}

export const htmlLang: Record<Locale, string> = { es: "es-CL", en: "en" };

export const LOCALE_COOKIE = "lang";

export function parseLocale(value: string | null | undefined): Locale | null {
  return value === "es" || value === "en" ? value : null;
}

/** `?lang=` wins and is remembered; then the cookie; then es-CL. */
export function resolveLocale(url: URL, cookieHeader: string | null): { locale: Locale; remember: boolean } {
  const fromQuery = parseLocale(url.searchParams.get("lang"));
  if (fromQuery) return { locale: fromQuery, remember: true };
  const fromCookie = cookieHeader
    ?.split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === LOCALE_COOKIE)?.[1];
  return { locale: parseLocale(fromCookie) ?? "es", remember: false };
}

export function localeCookie(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}
