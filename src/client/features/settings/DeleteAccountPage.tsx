import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { USERNAME_HOLD_DAYS } from '../../../shared/limits';
import { APP_NAME } from '../../app-name';
import { errorMessages } from '../../lib/rejected';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { CurrentPasswordField } from '../../ui/CurrentPasswordField';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useDeleteAccount } from './api/delete-account';
import { SignInAgain } from './SignInAgain';
import styles from './DeleteAccountPage.module.css';
import security from './SecurityPages.module.css';
import { useCurrentUser } from '../../api/current-user';

/**
 * Not in the spec (issue 16): Settings → Security → Delete Account. Says what goes, asks for the
 * password, then asks once more (the shared popup, Cancel focused first) before erasing; then
 * the browser is signed out and lands on the sign-in screen. A wrong password or any failure
 * shows in the form's error area, and nothing was deleted.
 */
export function DeleteAccountPage() {
  const navigate = useNavigate();
  const deletion = useDeleteAccount();
  // Issue 29: an account made through single sign-on has no password to type (a fresh sign-in proves it).
  const hasPassword = useCurrentUser()?.hasPassword !== false;
  useDocumentTitle(COPY.settings.deleteAccount);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (deletion.isPending) return;
    const problems = hasPassword && password === '' ? [ERRORS.FILL_IN_ALL_FIELDS] : [];
    setErrors(problems);
    if (problems.length === 0) setConfirming(true);
  }

  function confirm() {
    setConfirming(false);
    deletion.mutate(
      { password },
      {
        onSuccess: () => void navigate(paths.login, { replace: true }),
        onError: (error) => setErrors(errorMessages(error)),
      },
    );
  }

  return (
    <Page title={COPY.settings.deleteAccount} back width="column">
      <form className={security.form} onSubmit={submit} noValidate>
        <p className={security.intro}>{COPY.deleteAccount.intro}</p>
        <ul className={styles.erases}>
          {COPY.deleteAccount.erases.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className={styles.warning}>{COPY.deleteAccount.cannotUndo}</p>
        <p className={styles.note}>
          {COPY.deleteAccount.keepFirst} <Link to={paths.downloadData}>{COPY.deleteAccount.downloadFirst}</Link>
        </p>
        <p className={styles.note}>{COPY.deleteAccount.usernameHeld(USERNAME_HOLD_DAYS)}</p>
        {hasPassword && (
          <CurrentPasswordField id="delete-password" label={COPY.deleteAccount.password} value={password} onChange={setPassword} />
        )}
        <FormErrors messages={errors} testId="delete-errors" />
        <SignInAgain errors={errors} page={paths.deleteAccount} />
        <button type="submit" className={`${button.danger} ${styles.submit}`} disabled={deletion.isPending}>
          {COPY.settings.deleteAccount}
        </button>
      </form>

      {confirming && (
        <PopUp
          title={COPY.deleteAccount.confirmTitle}
          message={COPY.deleteAccount.confirmMessage(APP_NAME)}
          buttons={[
            { label: COPY.settings.deleteAccount, onClick: confirm, variant: 'danger' },
            { label: COPY.cancel, onClick: () => setConfirming(false), variant: 'secondary' },
          ]}
          onCancel={() => setConfirming(false)}
        />
      )}
      {deletion.isPending && <PopUp title={COPY.deleteAccount.deletingTitle} message={COPY.deleteAccount.deletingMessage} loading />}
    </Page>
  );
}
