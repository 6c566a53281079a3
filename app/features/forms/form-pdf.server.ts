import { createHash } from "node:crypto";
import { clinicDate } from "~/domain/clinic-time";
import { answerText, visibleQuestionIds, type FormAnswers, type FormDefinition } from "~/domain/form-rules";
import { formatClinicDateTimeSeconds } from "~/domain/format";
import { renderPdf } from "~/lib/pdf.server";

/** What the signed PDF of a submission states (ADR 041). */
export interface FormPdfData {
  definition: FormDefinition;
  answers: FormAnswers;
  signaturePng: Uint8Array | null;
  patientName: string;
  clinicName: string;
  submittedAt: Date;
  ip: string;
  supersedesId: string | null;
}

/** The PDF's file name: the form and the clinic day it was sent (in the evening UTC is already on the next day). */
export function formPdfFileName(slug: string, submittedAt: Date) {
  return `${slug.replace(/[^a-z0-9-]/g, "")}-${clinicDate(submittedAt)}.pdf`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The submission as a document: the form's title and version, each section's text (what the patient read and
 * consented to), every visible question with its answer, the drawn signature, and when and from where it was sent
 * (Santiago time). Drawn with the project's one pdfkit helper; `compress: false` only for tests that read its text.
 */
export function renderFormPdf(data: FormPdfData, options: { compress?: boolean } = {}): Promise<Buffer> {
  const { definition, answers } = data;
  const visible = visibleQuestionIds(definition, answers);
  return renderPdf(
    {
      margin: 56,
      info: {
        Title: definition.title,
        Author: data.clinicName,
        Subject: `${definition.slug} v${definition.version}`,
      },
      compress: options.compress,
    },
    (doc) => {
      doc.fillColor("#475569").font("Helvetica").fontSize(10).text(data.clinicName);
      doc.moveDown(0.6).fillColor("#0f172a").font("Helvetica-Bold").fontSize(18).text(definition.title);
      doc.font("Helvetica").fontSize(10).fillColor("#475569");
      doc.text(`Versión del formulario: ${definition.version} (${definition.slug})`);
      doc.text(`Paciente: ${data.patientName}`);
      if (data.supersedesId) doc.text(`Reemplaza a una respuesta anterior (${data.supersedesId}).`);
      doc.fillColor("#0f172a");
      if (definition.intro) doc.moveDown(0.6).fontSize(10).text(definition.intro);

      for (const section of definition.sections) {
        doc.moveDown(1).font("Helvetica-Bold").fontSize(13).text(section.title);
        doc.font("Helvetica").fontSize(10);
        for (const paragraph of section.paragraphs) doc.moveDown(0.3).text(paragraph, { align: "justify" });
        for (const question of section.questions) {
          if (!visible.has(question.id)) continue;
          doc.moveDown(0.5).font("Helvetica-Bold").fontSize(10).text(question.label);
          if (question.type === "signature" && data.signaturePng) {
            doc.moveDown(0.2);
            doc.image(Buffer.from(data.signaturePng), { fit: [220, 90] });
            doc.moveDown(0.2);
          } else {
            doc.font("Helvetica").text(answerText(question, answers[question.id]));
          }
        }
      }

      doc.moveDown(1.5).font("Helvetica").fontSize(9).fillColor("#475569");
      doc.text(`Enviado el ${formatClinicDateTimeSeconds(data.submittedAt)} (hora de Santiago de Chile).`);
      doc.text(`Dirección IP de envío: ${data.ip}.`);
      doc.text(
        `Formulario "${definition.slug}", versión ${definition.version}. Documento generado por el portal; su huella SHA-256 se conserva en la clínica.`,
      );
    },
  );
}
