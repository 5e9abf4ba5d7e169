import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { validateNewPassword } from '../../../shared/validation/password';
import { ApiError } from '../../api/http';
import { errorMessage, errorMessages } from '../../lib/rejected';
import { paths } from '../../paths';
import { FORGOT_PASSWORD_OFFERED } from '../../server-meta';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { PopUp } from '../../ui/PopUp';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useResetCheck } from './api/reset-check';
import { useResetPassword } from './api/reset-password';
import { AuthScreen } from './AuthScreen';
import { ProblemCard } from './ProblemCard';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

const isDeadLink = (error: unknown) => error instanceof ApiError && error.code === 'RESET_LINK_INVALID';

/** The way on from a link that no longer works: sign in, or ask for a new link. */
function DeadLink({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <ProblemCard id="reset-title" title={COPY.reset.invalidTitle} message={message}>
      {onRetry && (
        <button type="button" className={button.secondary} onClick={onRetry}>
          {COPY.routeError.retry}
        </button>
      )}
      <Link to={paths.login} className={button.primary}>
        {COPY.reset.toSignIn}
      </Link>
      {FORGOT_PASSWORD_OFFERED && (
        <Link to={paths.forgotPassword} className={recovery.textLink}>
          {COPY.forgot.link}
        </Link>
      )}
    </ProblemCard>
  );
}

/**
 * Not in the spec (issue 16): a password reset link (/reset/{token}), from `npm run admin --
 * reset-link` or a "Forgot password?" mail. The link is checked first, so a dead one says so
 * before anything is typed; then the new password, twice, under the sign-up rules. Success signs
 * this browser in (every other session of the account has ended) and goes home.
 */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const link = useResetCheck(token);
  const reset = useResetPassword();
  useDocumentTitle(COPY.reset.title);
  const [newPassword, setNew] = useState('');
  const [confirmPassword, setConfirm] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [dead, setDead] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (reset.isPending) return;
    const body = { token, newPassword, confirmPassword };
    const problems = validateNewPassword(body);
    setErrors(problems);
    if (problems.length > 0) return;
    reset.mutate(body, {
      onSuccess: () => void navigate(paths.home, { replace: true }),
      onError: (error) => (isDeadLink(error) ? setDead(true) : setErrors(errorMessages(error))),
    });
  }

  if (link.isPending) {
    return (
      <AuthScreen>
        <Spinner label={COPY.reset.checking} showLabel />
      </AuthScreen>
    );
  }
  if (dead || link.isError) {
    const deadLink = dead || isDeadLink(link.error);
    return (
      <AuthScreen>
        <DeadLink
          message={deadLink ? ERRORS.RESET_LINK_INVALID : errorMessage(link.error)}
          onRetry={deadLink ? undefined : () => void link.refetch()}
        />
      </AuthScreen>
    );
  }

  const { username } = link.data;
  return (
    <AuthScreen>
      <form className={styles.card} onSubmit={submit} noValidate aria-labelledby="reset-title">
        <h2 id="reset-title" className={recovery.title}>
          {COPY.reset.title}
        </h2>
        <p className={recovery.intro}>{COPY.reset.forUser(username)}</p>
        {/* For password managers: which account the new password belongs to. */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        <NewPasswordFields
          newPassword={newPassword}
          confirmPassword={confirmPassword}
          onNewPassword={setNew}
          onConfirmPassword={setConfirm}
        />
        <button type="submit" className={button.primary}>
          {COPY.reset.submit}
        </button>
        <FormErrors messages={errors} testId="reset-errors" />
      </form>
      {/* Modal: no second submit meanwhile; the button stays enabled so focus comes back to it. */}
      {reset.isPending && <PopUp title={COPY.reset.settingTitle} message={COPY.reset.settingMessage} loading />}
    </AuthScreen>
  );
}
