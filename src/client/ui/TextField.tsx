import type { InputHTMLAttributes } from 'react';
import field from './field.module.css';

type TextFieldProps = { id: string; label: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'placeholder'>;

/** A text input whose label is read out by screen readers and shown as its placeholder. */
export function TextField({ id, label, className, ...input }: TextFieldProps) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input id={id} className={className ? `${field.input} ${className}` : field.input} placeholder={label} {...input} />
    </>
  );
}
