import type { LabelHTMLAttributes, ReactNode } from 'react';

type ImagePickerProps = {
  /** What the label shows: it opens the file chooser when tapped. */
  children: ReactNode;
  /** The file, or null when the chooser comes back empty. */
  onChoose: (file: File | null) => void;
  /** The input's accessible name, when the label's own content does not say it. */
  inputLabel?: string;
} & Omit<LabelHTMLAttributes<HTMLLabelElement>, 'children' | 'onChange'>;

/**
 * A label around a hidden file input for one image: the label is what people see and tap, the
 * input keeps the keyboard focus (style the label with :focus-within). accept="image/*" is only a
 * hint to the chooser; the form checks the type itself (lib/prepare-image.ts).
 */
export function ImagePicker({ children, onChoose, inputLabel, ...label }: ImagePickerProps) {
  return (
    <label {...label}>
      {children}
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        aria-label={inputLabel}
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
    </label>
  );
}
