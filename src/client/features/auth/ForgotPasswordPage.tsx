import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { validateForgotPassword } from '../../../shared/validation/password-reset';
import { errorMessages } from '../../lib/rejected';
import { paths } from '../../paths';
import { FORGOT_PASSWORD_OFFERED } from '../../server-meta';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useForgotPassword } from './api/forgot-password';
import { AuthScreen } from './AuthScreen';
import { IdentifierField } from './IdentifierField';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

/**
 * Not in the spec (issue 16): "Forgot password?" (/forgot-password), when the server sends mail.
 * Asks for a username or e-mail and says the same whatever it matched: the server's answer is
 * the same for an account and for none, so this page cannot tell either.
 */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const forgot = useForgotPassword();
  useDocumentTitle(COPY.forgot.title);
  const [identifier, setIdentifier] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [sent, setSent] = useState(false);

  // No mail on this server: there is nothing to ask for here.
  if (!FORGOT_PASSWORD_OFFERED) return <Navigate to={paths.login} replace />;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (forgot.isPending) return;
    const body = { identifier };
    const problems = validateForgotPassword(body);
    setErrors(problems);
    if (problems.length > 0) return;
    forgot.mutate(body, { onSuccess: () => setSent(true), onError: (error) => setErrors(errorMessages(error)) });
  }

  const toSignIn = () => void navigate(paths.login);

  return (
    <AuthScreen>
      <form className={styles.card} onSubmit={submit} noValidate aria-labelledby="forgot-title">
        <h2 id="forgot-title" className={recovery.title}>
          {COPY.forgot.title}
        </h2>
        <p className={recovery.intro}>{COPY.forgot.intro}</p>
        <IdentifierField value={identifier} onChange={setIdentifier} />
        <button type="submit" className={button.primary}>
          {COPY.forgot.submit}
        </button>
        <FormErrors messages={errors} testId="forgot-errors" />
        <Link to={paths.login} className={recovery.textLink}>
          {COPY.forgot.toSignIn}
        </Link>
      </form>
      {/* The modal dialogs keep the form from a second submit; its button stays enabled (and
          focused), so each dialog hands focus back to it when it closes. */}
      {forgot.isPending && <PopUp title={COPY.forgot.sendingTitle} loading />}
      {/* Only once the sending dialog has gone: it hands focus back to Send Link, and this one
          hands it back there again when it closes. */}
      {sent && !forgot.isPending && (
        <PopUp
          title={COPY.forgot.sentTitle}
          message={COPY.forgot.sentMessage}
          buttons={[{ label: COPY.forgot.toSignIn, onClick: toSignIn }]}
          onCancel={() => setSent(false)}
        />
      )}
    </AuthScreen>
  );
}
