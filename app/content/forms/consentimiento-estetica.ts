/**
 * 'Consentimiento informado' for the clinic's aesthetic procedures (treatment `estetica`: veneers, whitening, smile
 * design, and facial harmonisation with botulinum toxin or hyaluronic acid), ADR 041. Ley 20.584 art. 14: consent is
 * free, voluntary, informed and revocable, and in writing for invasive procedures. Data in the format of
 * domain/form-rules.ts; a change is a new version.
 */
export const consentimientoEstetica = {
  slug: "consentimiento-estetica",
  version: 1,
  kind: "consentimiento",
  title: "Consentimiento informado: estética dental y armonización facial",
  intro:
    "Este documento le explica el procedimiento que se le propone, sus beneficios, riesgos y alternativas, y los cuidados posteriores. Léalo con calma. Su dentista lo revisará con usted antes de comenzar y responderá todas sus preguntas; puede cambiar de opinión en cualquier momento.",
  treatmentSlugs: ["estetica"],
  sections: [
    {
      id: "procedimiento",
      title: "Qué se realizará",
      paragraphs: [
        "Blanqueamiento dental: aplicación de un gel aclarador (peróxido de hidrógeno o de carbamida) sobre los dientes, en la clínica o con cubetas en casa, para aclarar su color.",
        "Carillas: láminas delgadas de resina o cerámica adheridas a la cara visible de los dientes para cambiar su forma, tamaño o color. Puede requerir desgastar una capa fina del esmalte, lo que no es reversible.",
        "Toxina botulínica: inyecciones con aguja fina en músculos de la cara para relajar su contracción (líneas de expresión, bruxismo o sonrisa gingival). El efecto aparece entre 3 y 14 días después y dura en general de 3 a 6 meses.",
        "Ácido hialurónico: inyección de un gel reabsorbible bajo la piel o la mucosa para dar volumen o definir labios, surcos u otras zonas. El efecto es inmediato y dura en general de 6 a 18 meses.",
      ],
      questions: [
        {
          id: "procedimiento",
          type: "choice",
          required: true,
          label: "Procedimiento que se le realizará",
          help: "Si no está seguro, elija el que conversó con su dentista; lo confirmarán juntos antes de comenzar.",
          options: [
            { value: "blanqueamiento", label: "Blanqueamiento dental" },
            { value: "carillas", label: "Carillas de resina o cerámica" },
            { value: "toxina_botulinica", label: "Toxina botulínica" },
            { value: "acido_hialuronico", label: "Ácido hialurónico (relleno)" },
            { value: "otro", label: "Otro procedimiento estético indicado por mi dentista" },
          ],
        },
        {
          id: "procedimiento_otro",
          type: "text",
          required: true,
          maxLength: 300,
          label: "¿Qué procedimiento?",
          showWhen: { question: "procedimiento", equals: "otro" },
        },
      ],
    },
    {
      id: "beneficios",
      title: "Beneficios y alternativas",
      paragraphs: [
        "El beneficio esperado es estético: mejorar el color, la forma o la armonía de los dientes, la sonrisa o el rostro. Los resultados varían de una persona a otra y no pueden garantizarse.",
        "Alternativas: no realizar el procedimiento (la salud de su boca no depende de él); en los dientes, blanqueamiento en lugar de carillas, coronas u ortodoncia; en el rostro, otros productos o técnicas, o la evaluación de un médico especialista.",
      ],
    },
    {
      id: "riesgos",
      title: "Riesgos y posibles complicaciones",
      paragraphs: [
        "Blanqueamiento: sensibilidad dental y molestias en las encías, en general pasajeras; el color puede no quedar parejo en dientes con restauraciones, que no se aclaran.",
        "Carillas: sensibilidad, despegamiento o fractura de la carilla; el desgaste del esmalte es permanente y las carillas necesitan mantención o recambio con los años.",
        "Toxina botulínica: dolor, enrojecimiento o moretones en el sitio de la inyección; dolor de cabeza; con poca frecuencia, caída transitoria del párpado o asimetría de la sonrisa, que se resuelven cuando pasa el efecto.",
        "Ácido hialurónico: hinchazón, moretones, nódulos o irregularidades; infección; muy rara vez, obstrucción de un vaso sanguíneo, que puede dañar la piel o, excepcionalmente, la visión y requiere atención inmediata. Los rellenos de ácido hialurónico pueden disolverse con una enzima (hialuronidasa).",
        "En cualquier procedimiento pueden presentarse reacciones alérgicas a los materiales o a la anestesia. Avísenos si su salud o sus medicamentos cambiaron desde que completó sus antecedentes.",
        "No se recomiendan la toxina botulínica ni los rellenos durante el embarazo o la lactancia, ni con una infección activa en la zona.",
      ],
    },
    {
      id: "cuidados",
      title: "Cuidados posteriores",
      paragraphs: [
        "Blanqueamiento y carillas: evite por 48 horas alimentos y bebidas con mucho color (café, té, vino tinto, bebidas cola) y el tabaco; use pasta para dientes sensibles si lo necesita; mantenga sus controles.",
        "Toxina botulínica: no se recueste ni masajee la zona durante 4 horas, y evite el ejercicio intenso, el calor intenso y el alcohol ese día.",
        "Ácido hialurónico: aplique frío local si hay hinchazón, evite maquillaje, sauna y ejercicio intenso por 24 horas. Si tiene dolor intenso, la piel se pone pálida o morada, o nota cambios en la visión, llame de inmediato a la clínica o acuda a un servicio de urgencia.",
        "Asista al control que le indique su dentista, en general entre 2 y 3 semanas después.",
      ],
    },
    {
      id: "derechos",
      title: "Su derecho a decidir",
      paragraphs: [
        "Su consentimiento es libre y voluntario (Ley 20.584, artículo 14). Puede negarse a este procedimiento sin que eso afecte el resto de su atención en la clínica.",
        "Puede revocar este consentimiento en cualquier momento antes del procedimiento, o suspenderlo, avisando a su dentista o a la clínica, sin expresión de causa. Si lo revoca una vez iniciado, le explicaremos cómo terminar de forma segura lo que ya se haya hecho.",
        "Tiene derecho a recibir respuesta a todas sus preguntas antes de firmar. El profesional tratante revisará este documento con usted en la consulta.",
      ],
    },
    {
      id: "firma",
      title: "Declaración y firma",
      questions: [
        {
          id: "informacion_comprendida",
          type: "yes_no",
          required: true,
          mustBeYes: true,
          label:
            "He leído esta información, la comprendo y sé que puedo hacer preguntas a mi dentista antes del procedimiento.",
        },
        {
          id: "acepta_procedimiento",
          type: "yes_no",
          required: true,
          mustBeYes: true,
          label:
            "Acepto en forma libre y voluntaria que se me realice el procedimiento indicado, y sé que puedo revocar esta decisión en cualquier momento.",
        },
        {
          id: "nombre_completo",
          type: "text",
          required: true,
          maxLength: 120,
          label: "Nombre completo",
          autoComplete: "name",
        },
        { id: "rut", type: "text", format: "rut", required: true, maxLength: 14, label: "RUT" },
        {
          id: "firma",
          type: "signature",
          required: true,
          label: "Firma",
          help: "Dibuje su firma en el recuadro con el dedo o con el mouse.",
        },
      ],
    },
  ],
};
