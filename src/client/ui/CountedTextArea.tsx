import type { TextareaHTMLAttributes } from 'react';
import own from './CountedTextArea.module.css';
import field from './field.module.css';

type CountedTextAreaProps = {
  id: string;
  label: string;
  /** The length as the form's rule counts it (UTF-16 units or characters), shown as "length/max". */
  length: number;
  max: number;
  /** Read the count out as it changes (aria-live). */
  announceCount?: boolean;
  /** The page's own classes for the label and the box (its CSS module's .label and .textarea). */
  styles: { label?: string; textarea?: string };
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'>;

/** A labelled text box with its "length/max" counter below, red when over. */
export function CountedTextArea({ id, label, length, max, announceCount, styles, ...textarea }: CountedTextAreaProps) {
  return (
    <>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <textarea id={id} className={`${field.input} ${styles.textarea}`} {...textarea} />
      <span className={own.counter} data-over={length > max} aria-live={announceCount ? 'polite' : undefined}>
        {length}/{max}
      </span>
    </>
  );
}
