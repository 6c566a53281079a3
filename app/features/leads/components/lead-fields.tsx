import { EmailField, NameField, PhoneField, SelectField } from "~/components/form-fields";
import { ChoiceOptions } from "~/components/ui/choice-options";
import { budgets, treatments, urgencies } from "~/domain/lead-scoring";
import { budgetLabels, treatmentLabels, urgencyLabels } from "~/domain/lead-labels";

type ErrorOf = (field: string) => string | undefined;

/** `idPrefix`: the fields' ids are `${idPrefix}-${name}` (a form prepared apart from the page, ADR 055), else `useId`'s. */
const idFor = (idPrefix: string | undefined, name: string) => (idPrefix ? `${idPrefix}-${name}` : undefined);

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
  idPrefix,
}: {
  error: ErrorOf;
  nameLabel: string;
  own: boolean;
  readOnly?: boolean;
  emailClassName?: string;
  idPrefix?: string;
}) {
  return (
    <>
      <NameField
        id={idFor(idPrefix, "name")}
        label={nameLabel}
        error={error("name")}
        autoComplete={own ? "name" : "off"}
        required
        readOnly={readOnly}
      />
      <PhoneField
        id={idFor(idPrefix, "phone")}
        label="Teléfono"
        error={error("phone")}
        hint="Celular o fijo chileno."
        name="phone"
        autoComplete={own ? "tel" : "off"}
        required
        readOnly={readOnly}
      />
      <EmailField
        id={idFor(idPrefix, "email")}
        label="E-mail (opcional)"
        error={error("email")}
        className={emailClassName}
        autoComplete={own ? "email" : "off"}
        readOnly={readOnly}
      />
    </>
  );
}

/** Treatment, urgency and budget: the choices the lead score reads. */
export function LeadChoiceFields({
  error,
  labels,
  idPrefix,
}: {
  error: ErrorOf;
  labels: { treatment: string; urgency: string; budget: string };
  idPrefix?: string;
}) {
  return (
    <>
      <SelectField
        id={idFor(idPrefix, "treatment")}
        label={labels.treatment}
        error={error("treatment")}
        name="treatment"
        required
        defaultValue=""
      >
        <ChoiceOptions values={treatments} labels={treatmentLabels} />
      </SelectField>
      <SelectField
        id={idFor(idPrefix, "urgency")}
        label={labels.urgency}
        error={error("urgency")}
        name="urgency"
        required
        defaultValue=""
      >
        <ChoiceOptions values={urgencies} labels={urgencyLabels} />
      </SelectField>
      <SelectField
        id={idFor(idPrefix, "budget")}
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
