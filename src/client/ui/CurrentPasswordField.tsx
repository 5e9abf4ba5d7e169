import { TextField } from './TextField';

interface CurrentPasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * The account's password typed again to prove it is its owner (Change Password, Delete
 * Account): marked `current-password`, so password managers fill it in rather than offer a new one.
 */
export function CurrentPasswordField({ id, label, value, onChange }: CurrentPasswordFieldProps) {
  return (
    <TextField
      id={id}
      label={label}
      type="password"
      autoComplete="current-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
