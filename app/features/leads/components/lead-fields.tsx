import { InputField, SelectField } from "~/components/form-fields";
import { ChoiceOptions } from "~/components/ui/choice-options";
import { budgets, treatments, urgencies } from "~/domain/lead-scoring";
import { budgetLabels, treatmentLabels, urgencyLabels } from "../lead-options";

type ErrorOf = (field: string) => string | undefined;

/**
 * Name, phone and e-mail of a lead: the landing form (the visitor's own, autofilled) and the staff test form
 * (someone else's, never autofilled) share them.
 */
export function LeadContactFields({
  error,
  nameLabel,
  own,
  readOnly,
  emailClassName,
}: {
  error: ErrorOf;
  nameLabel: string;
  own: boolean;
  readOnly?: boolean;
  emailClassName?: string;
}) {
  return (
    <>
      <InputField
        label={nameLabel}
        error={error("name")}
        name="name"
        autoComplete={own ? "name" : "off"}
        required
        maxLength={100}
        readOnly={readOnly}
      />
      <InputField
        label="Teléfono"
        error={error("phone")}
        hint="Celular o fijo chileno."
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete={own ? "tel" : "off"}
        placeholder="+56 9 1234 5678"
        required
        maxLength={30}
        readOnly={readOnly}
      />
      <InputField
        label="E-mail (opcional)"
        error={error("email")}
        className={emailClassName}
        name="email"
        type="email"
        autoComplete={own ? "email" : "off"}
        maxLength={254}
        readOnly={readOnly}
      />
    </>
  );
}

/** Treatment, urgency and budget: the choices the lead score reads. */
export function LeadChoiceFields({
  error,
  labels,
}: {
  error: ErrorOf;
  labels: { treatment: string; urgency: string; budget: string };
}) {
  return (
    <>
      <SelectField
        label={labels.treatment}
        error={error("treatment")}
        name="treatment"
        required
        defaultValue=""
      >
        <ChoiceOptions values={treatments} labels={treatmentLabels} />
      </SelectField>
      <SelectField label={labels.urgency} error={error("urgency")} name="urgency" required defaultValue="">
        <ChoiceOptions values={urgencies} labels={urgencyLabels} />
      </SelectField>
      <SelectField
        label={labels.budget}
        error={error("budget")}
        className="sm:col-span-2"
        name="budget"
        required
        defaultValue=""
      >
        <ChoiceOptions values={budgets} labels={budgetLabels} />
      </SelectField>
    </>
  );
}
