import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { validateNewPassword } from '../../../shared/validation/password';
import { errorMessages } from '../../lib/rejected';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { CurrentPasswordField } from '../../ui/CurrentPasswordField';
import { FormErrors } from '../../ui/FormErrors';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useChangePassword } from './api/sessions';
import styles from './SecurityPages.module.css';
import { SignInAgain } from './SignInAgain';
import { useCurrentUser } from '../../api/current-user';

/**
 * Not in the spec (issue 16): Settings → Security → Change Password. The sign-up rules for the
 * new password (the server adds "too common"), typed twice; every other session ends.
 */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  const change = useChangePassword();
  // Issue 29: an account made through single sign-on adds its first password, with no current one to type.
  const hasPassword = useCurrentUser()?.hasPassword !== false;
  useDocumentTitle(COPY.settings.changePassword);
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [done, setDone] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (change.isPending) return;
    const body = { currentPassword, newPassword, confirmPassword };
    const problems = validateNewPassword(hasPassword ? body : { newPassword, confirmPassword });
    setErrors(problems);
    if (problems.length > 0) return;
    change.mutate(body, {
      onSuccess: () => {
        setCurrent('');
        setNew('');
        setConfirm('');
        setDone(true);
      },
      onError: (error) => setErrors(errorMessages(error)),
    });
  }

  return (
    <Page title={COPY.settings.changePassword} back width="column">
      <form className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.intro}>{COPY.security.changePasswordIntro}</p>
        {hasPassword && (
          <CurrentPasswordField id="current-password" label={COPY.security.currentPassword} value={currentPassword} onChange={setCurrent} />
        )}
        <NewPasswordFields
          newPassword={newPassword}
          confirmPassword={confirmPassword}
          onNewPassword={setNew}
          onConfirmPassword={setConfirm}
        />
        <FormErrors messages={errors} testId="password-errors" />
        <SignInAgain errors={errors} page={paths.changePassword} />
        <button type="submit" className={button.primary} disabled={change.isPending}>
          {COPY.settings.changePassword}
        </button>
      </form>

      {change.isPending && <PopUp title={COPY.security.changingTitle} message={COPY.security.changingMessage} loading />}
      {done && (
        <PopUp
          title={COPY.security.changedTitle}
          message={COPY.security.changedMessage}
          buttons={[{ label: COPY.home, onClick: () => void navigate(paths.home) }]}
          onCancel={() => setDone(false)}
        />
      )}
    </Page>
  );
}
