/** The <option>s of a required <select>: a disabled "Elige una opción" placeholder, then each value's label. */
export function ChoiceOptions({
  values,
  labels,
}: {
  values: readonly string[];
  labels: Record<string, string>;
}) {
  return (
    <>
      <option value="" disabled>
        Elige una opción
      </option>
      {values.map((value) => (
        <option key={value} value={value}>
          {labels[value]}
        </option>
      ))}
    </>
  );
}
