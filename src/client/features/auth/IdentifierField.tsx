import * as COPY from '../../../shared/copy';
import { TextField } from '../../ui/TextField';

/** 'Username or Email', as the sign-in form asks for it (and "Forgot password?" after it). */
export function IdentifierField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      id="identifier"
      label={COPY.login.identifierPlaceholder}
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
