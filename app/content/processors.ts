/**
 * Who processes personal data on the clinic's behalf ("encargados del tratamiento", Ley 19.628 art. 15 bis as
 * amended by Ley 21.719), for what, which data, and where — with the international transfers and their safeguards
 * (arts. 27–29). One list: the privacy policy and the admin privacy page (`ProcessorsList`) both render it (ADR 038).
 * Locations are what each vendor publishes; where a vendor lets the customer choose (Infobip's data centre, the
 * LLM endpoint, the mail relay) the text says so, and the clinic records its choice in its contract.
 */

export interface Processor {
  id: "whatsapp" | "llm" | "dentalink" | "smtp" | "webpay";
  name: string;
  /** What the processor does for the clinic. */
  purpose: string;
  /** Which personal data it receives. */
  data: string;
  /** Where it processes them. */
  location: string;
  /** Whether the data leave Chile (an international transfer, arts. 27–29). */
  transferAbroad: boolean;
  /** The safeguards of the transfer or of the processing. */
  safeguards: string;
  /** When it is used only under a condition (configured, consented). */
  condition?: string;
}

export const processors: readonly Processor[] = [
  {
    id: "dentalink",
    name: "Dentalink (sistema de gestión clínica)",
    purpose: "Ficha clínica, agenda, tratamientos, presupuestos, pagos registrados y documentos clínicos.",
    data: "Identificación (nombre, RUT, contacto), citas, antecedentes de salud, tratamientos, imágenes y documentos.",
    location:
      "Proveedor chileno; sus servidores pueden estar fuera de Chile según su infraestructura en la nube.",
    transferAbroad: true,
    safeguards:
      "Contrato de encargo con obligaciones de confidencialidad y seguridad; comunicación cifrada; acceso con credenciales de la clínica.",
  },
  {
    id: "whatsapp",
    name: "Infobip (mensajería de WhatsApp) y WhatsApp de Meta",
    purpose:
      "Enviar confirmaciones y recordatorios de citas y responder los mensajes que nos escribas por WhatsApp.",
    data: "Número de teléfono, nombre de perfil y el texto de los mensajes.",
    location:
      "Infobip tiene su sede en la Unión Europea y centros de datos en varias regiones; WhatsApp (Meta) procesa los mensajes en Estados Unidos y otros países.",
    transferAbroad: true,
    safeguards:
      "Cláusulas contractuales de protección de datos del proveedor; mensajes cifrados en tránsito; el texto se elimina de nuestros registros a los 6 meses.",
    condition: "Solo si aceptaste recibir mensajes por WhatsApp o nos escribiste por ese medio.",
  },
  {
    id: "llm",
    name: "Proveedor de inteligencia artificial (API compatible con OpenAI)",
    purpose: "Redactar las respuestas del chat del sitio cuando la clínica lo tiene activado.",
    data: "El texto de tu conversación con el chat (no el nombre, correo ni teléfono de tu cuenta), y solo después de que aceptes el aviso del chat con IA.",
    location: "Según el proveedor que configure la clínica; los principales operan en Estados Unidos.",
    transferAbroad: true,
    safeguards:
      "Contrato de encargo y condiciones del proveedor que excluyen el uso de los datos para entrenar modelos; solo con tu aceptación del aviso del chat con IA; sin él, responde el asistente propio de la clínica, que no envía datos a terceros.",
    condition: "Solo si la clínica lo activa y aceptas el aviso del chat con IA.",
  },
  {
    id: "smtp",
    name: "Servicio de envío de correo (relay SMTP)",
    purpose:
      "Enviar los correos del portal: confirmaciones, recordatorios, enlaces de acceso y respuestas a tus solicitudes.",
    data: "Tu correo electrónico, tu nombre y el contenido del correo.",
    location: "Según el proveedor de correo que configure la clínica; puede estar fuera de Chile.",
    transferAbroad: true,
    safeguards:
      "Contrato de encargo; conexión cifrada con el servidor de correo; el contenido se elimina de nuestra cola de envío a los 30 días.",
  },
  {
    id: "webpay",
    name: "Transbank (Webpay Plus)",
    purpose: "Procesar los pagos en línea con tarjeta.",
    data: "Monto, orden de compra y los datos de tu tarjeta, que ingresas directamente en Webpay (la clínica solo recibe los últimos 4 dígitos).",
    location: "Chile.",
    transferAbroad: false,
    safeguards:
      "Proveedor regulado que cumple el estándar de seguridad de la industria de tarjetas (PCI DSS).",
  },
];
