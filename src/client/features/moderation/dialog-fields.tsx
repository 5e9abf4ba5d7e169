import field from '../../ui/field.module.css';
import styles from './ReportDialog.module.css';

/** The fields of the Report and moderation dialogs: one set of radio buttons, one text area. */

/** Radio buttons under a legend (a report's reasons, a suspension's length). */
export function Choices<T>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T | null;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className={styles.reasons}>
      <legend className={styles.legend}>{legend}</legend>
      {options.map((option) => (
        <label key={option.label} className={styles.reason}>
          <input type="radio" name={name} checked={value === option.value} onChange={() => onChange(option.value)} />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A labelled text area with a length cap and, optionally, a hint read out with it. */
export function TextArea({
  id,
  label,
  value,
  onChange,
  maxLength,
  rows,
  required = false,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  rows: number;
  required?: boolean;
  hint?: string;
}) {
  return (
    <>
      <label className={styles.detailsLabel} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={`${field.input} ${styles.details}`}
        value={value}
        maxLength={maxLength}
        required={required}
        rows={rows}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
    </>
  );
}
