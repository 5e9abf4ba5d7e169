import * as COPY from '../../shared/copy';
import { TextField } from './TextField';

interface NewPasswordFieldsProps {
  newPassword: string;
  confirmPassword: string;
  onNewPassword: (value: string) => void;
  onConfirmPassword: (value: string) => void;
}

/**
 * A new password typed twice (Change Password, a reset link's page): labelled for screen readers
 * and marked `new-password`, so password managers offer to make one and remember it.
 */
export function NewPasswordFields({ newPassword, confirmPassword, onNewPassword, onConfirmPassword }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        id="new-password"
        label={COPY.security.newPassword}
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => onNewPassword(e.target.value)}
      />
      <TextField
        id="confirm-password"
        label={COPY.security.confirmPassword}
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(e) => onConfirmPassword(e.target.value)}
      />
    </>
  );
}
