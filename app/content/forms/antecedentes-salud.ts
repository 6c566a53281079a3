/**
 * 'Antecedentes de salud' (ADR 041): the health history every patient fills before the first visit. Data in the
 * format of domain/form-rules.ts (checked at boot by `formDefinitionSchema` and by its unit test); seeded on
 * (slug, version) in every mode. A change of wording or questions is a new version, never an edit of this one.
 */
export const antecedentesSalud = {
  slug: "antecedentes-salud",
  version: 1,
  kind: "antecedentes",
  title: "Antecedentes de salud",
  intro:
    "Antes de su primera atención necesitamos conocer su estado de salud. Algunas enfermedades y medicamentos cambian la forma en que planificamos el tratamiento, la anestesia o una cirugía. Sus respuestas son confidenciales y forman parte de su ficha clínica (Ley 20.584). Si no sabe responder algo, indíquelo y lo revisaremos juntos en la consulta.",
  treatmentSlugs: [],
  sections: [
    {
      id: "enfermedades",
      title: "Enfermedades y condiciones",
      paragraphs: ["Responda Sí o No. Incluya enfermedades que tuvo antes aunque hoy estén controladas."],
      questions: [
        {
          id: "hipertension",
          type: "yes_no",
          required: true,
          label: "¿Tiene presión arterial alta (hipertensión)?",
        },
        {
          id: "cardiopatia",
          type: "yes_no",
          required: true,
          label:
            "¿Tiene o ha tenido alguna enfermedad del corazón (infarto, arritmia, soplo, válvula cardíaca o marcapasos)?",
        },
        { id: "diabetes", type: "yes_no", required: true, label: "¿Tiene diabetes?" },
        {
          id: "coagulacion",
          type: "yes_no",
          required: true,
          label: "¿Sangra más de lo normal al cortarse o tiene algún trastorno de la coagulación?",
        },
        {
          id: "respiratoria",
          type: "yes_no",
          required: true,
          label: "¿Tiene asma u otra enfermedad respiratoria?",
        },
        {
          id: "infecciosa",
          type: "yes_no",
          required: true,
          label: "¿Tiene o ha tenido hepatitis, VIH, tuberculosis u otra enfermedad infecciosa?",
        },
        {
          id: "epilepsia",
          type: "yes_no",
          required: true,
          label: "¿Tiene epilepsia o ha tenido convulsiones?",
        },
        {
          id: "hueso",
          type: "yes_no",
          required: true,
          label:
            "¿Toma o ha tomado medicamentos para la osteoporosis (por ejemplo, alendronato o denosumab), o ha recibido radioterapia en la cabeza o el cuello?",
          help: "Es importante antes de una extracción, un implante o una cirugía.",
        },
        {
          id: "otras_condiciones",
          type: "yes_no",
          required: true,
          label: "¿Tiene alguna otra enfermedad o condición que debamos conocer?",
        },
        {
          id: "otras_condiciones_detalle",
          type: "text",
          multiline: true,
          required: true,
          maxLength: 1000,
          label: "¿Cuál o cuáles?",
          showWhen: { question: "otras_condiciones", equals: "si" },
        },
      ],
    },
    {
      id: "medicamentos",
      title: "Medicamentos",
      questions: [
        {
          id: "toma_medicamentos",
          type: "yes_no",
          required: true,
          label: "¿Toma algún medicamento en forma habitual?",
          help: "Incluya anticonceptivos, suplementos y productos naturales.",
        },
        {
          id: "medicamentos_detalle",
          type: "text",
          multiline: true,
          required: true,
          maxLength: 1000,
          label: "¿Cuáles? Indique el nombre y la dosis de cada uno.",
          showWhen: { question: "toma_medicamentos", equals: "si" },
        },
        {
          id: "anticoagulantes",
          type: "yes_no",
          required: true,
          label:
            "¿Alguno de ellos es un anticoagulante o antiagregante (por ejemplo, aspirina, clopidogrel, warfarina o acenocumarol)?",
          showWhen: { question: "toma_medicamentos", equals: "si" },
        },
      ],
    },
    {
      id: "alergias",
      title: "Alergias",
      questions: [
        {
          id: "alergias",
          type: "yes_no",
          required: true,
          label: "¿Es alérgico a algún medicamento, al látex o a algún material?",
        },
        {
          id: "alergias_detalle",
          type: "text",
          multiline: true,
          required: true,
          maxLength: 1000,
          label: "¿A qué es alérgico y qué reacción tuvo?",
          showWhen: { question: "alergias", equals: "si" },
        },
      ],
    },
    {
      id: "embarazo",
      title: "Embarazo y lactancia",
      questions: [
        {
          id: "embarazo",
          type: "choice",
          required: true,
          label: "¿Está embarazada o podría estarlo?",
          options: [
            { value: "no", label: "No" },
            { value: "si", label: "Sí" },
            { value: "no_sabe", label: "No lo sé" },
            { value: "no_aplica", label: "No aplica" },
          ],
        },
        {
          id: "embarazo_semanas",
          type: "text",
          required: true,
          maxLength: 40,
          label: "¿Cuántas semanas de embarazo tiene?",
          showWhen: { question: "embarazo", equals: "si" },
        },
        {
          id: "lactancia",
          type: "choice",
          required: true,
          label: "¿Está amamantando?",
          options: [
            { value: "no", label: "No" },
            { value: "si", label: "Sí" },
            { value: "no_aplica", label: "No aplica" },
          ],
        },
      ],
    },
    {
      id: "anestesia",
      title: "Anestesia",
      questions: [
        {
          id: "problemas_anestesia",
          type: "yes_no",
          required: true,
          label: "¿Ha tenido alguna reacción o problema con la anestesia, local (dental) o general?",
        },
        {
          id: "problemas_anestesia_detalle",
          type: "text",
          multiline: true,
          required: true,
          maxLength: 1000,
          label: "Cuéntenos qué ocurrió y con qué anestesia.",
          showWhen: { question: "problemas_anestesia", equals: "si" },
        },
      ],
    },
    {
      id: "emergencia",
      title: "Contacto de emergencia",
      paragraphs: ["La persona a quien llamaremos si usted necesita ayuda durante o después de la atención."],
      questions: [
        {
          id: "contacto_nombre",
          type: "text",
          required: true,
          maxLength: 120,
          label: "Nombre y apellido",
          autoComplete: "off",
        },
        {
          id: "contacto_relacion",
          type: "text",
          required: true,
          maxLength: 60,
          label: "Relación con usted (por ejemplo, madre, pareja, amigo)",
          autoComplete: "off",
        },
        {
          id: "contacto_telefono",
          type: "text",
          format: "phone",
          required: true,
          maxLength: 30,
          label: "Teléfono",
          autoComplete: "off",
        },
      ],
    },
    {
      id: "declaracion",
      title: "Declaración",
      questions: [
        {
          id: "declaracion_veraz",
          type: "yes_no",
          required: true,
          mustBeYes: true,
          label:
            "Declaro que la información entregada es verdadera y completa, y que avisaré a la clínica si mi estado de salud o mis medicamentos cambian.",
        },
      ],
    },
  ],
};
