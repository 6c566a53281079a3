import { Field, Input, Textarea } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/base/action-result";

/** The incident's values as the form shows them (clinic time for the dates). */
export interface IncidentFieldValues {
  title: string;
  description: string;
  occurredAt: string;
  discoveredAt: string;
  dataCategories: string;
  sensitiveData: boolean;
  peopleAffected: string;
  affectedDescription: string;
  measures: string;
  agencyNotifiedAt: string;
  peopleNotifiedAt: string;
}

export const emptyIncident: IncidentFieldValues = {
  title: "",
  description: "",
  occurredAt: "",
  discoveredAt: "",
  dataCategories: "",
  sensitiveData: false,
  peopleAffected: "",
  affectedDescription: "",
  measures: "",
  agencyNotifiedAt: "",
  peopleNotifiedAt: "",
};

/** The breach register's fields (art. 14 sexies): what, when, which data and people, measures, who was told. */
export function IncidentFields({ values, errors }: { values: IncidentFieldValues; errors?: FieldErrors }) {
  const error = (name: string) => errors?.[name]?.[0];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Qué ocurrió (título)" error={error("title")} className="sm:col-span-2">
        {(props) => <Input {...props} name="title" required maxLength={200} defaultValue={values.title} />}
      </Field>
      <Field
        label="Descripción del incidente y sus efectos"
        error={error("description")}
        className="sm:col-span-2"
      >
        {(props) => (
          <Textarea
            {...props}
            name="description"
            required
            rows={4}
            maxLength={5000}
            defaultValue={values.description}
          />
        )}
      </Field>
      <Field label="Cuándo ocurrió (si se sabe)" error={error("occurredAt")}>
        {(props) => (
          <Input {...props} type="datetime-local" name="occurredAt" defaultValue={values.occurredAt} />
        )}
      </Field>
      <Field label="Cuándo se descubrió" error={error("discoveredAt")}>
        {(props) => (
          <Input
            {...props}
            type="datetime-local"
            name="discoveredAt"
            required
            defaultValue={values.discoveredAt}
          />
        )}
      </Field>
      <Field
        label="Categorías de datos afectados"
        hint="Por ejemplo: nombre, correo, teléfono, citas, antecedentes de salud."
        error={error("dataCategories")}
        className="sm:col-span-2"
      >
        {(props) => (
          <Input
            {...props}
            name="dataCategories"
            required
            maxLength={1000}
            defaultValue={values.dataCategories}
          />
        )}
      </Field>
      <div className="sm:col-span-2">
        <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            name="sensitiveData"
            defaultChecked={values.sensitiveData}
            className="mt-1 size-4 accent-brand-700"
          />
          Involucra datos de salud u otros datos sensibles (las personas afectadas deben ser informadas)
        </label>
      </div>
      <Field label="Número de personas afectadas" error={error("peopleAffected")}>
        {(props) => (
          <Input
            {...props}
            name="peopleAffected"
            inputMode="numeric"
            pattern="[0-9]*"
            defaultValue={values.peopleAffected}
          />
        )}
      </Field>
      <Field label="Quiénes son las personas afectadas" error={error("affectedDescription")}>
        {(props) => (
          <Input
            {...props}
            name="affectedDescription"
            maxLength={2000}
            defaultValue={values.affectedDescription}
          />
        )}
      </Field>
      <Field label="Medidas adoptadas" error={error("measures")} className="sm:col-span-2">
        {(props) => (
          <Textarea {...props} name="measures" rows={3} maxLength={5000} defaultValue={values.measures} />
        )}
      </Field>
      <Field label="Cuándo se informó a la Agencia" error={error("agencyNotifiedAt")}>
        {(props) => (
          <Input
            {...props}
            type="datetime-local"
            name="agencyNotifiedAt"
            defaultValue={values.agencyNotifiedAt}
          />
        )}
      </Field>
      <Field
        label="Cuándo se informó a las personas"
        hint="Se completa solo al enviar el aviso desde esta página."
        error={error("peopleNotifiedAt")}
      >
        {(props) => (
          <Input
            {...props}
            type="datetime-local"
            name="peopleNotifiedAt"
            defaultValue={values.peopleNotifiedAt}
          />
        )}
      </Field>
    </div>
  );
}
