import { useState, type FormEvent } from 'react';
import * as COPY from '../../../shared/copy';
import { errorMessage, errorMessages } from '../../lib/rejected';
import { Link, useNavigate } from '../../lib/router';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useCompleteSsoSignup, useSsoSignup } from './api/sso-signup';
import { AuthScreen } from './AuthScreen';
import { ProblemCard } from './ProblemCard';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

/**
 * Not in the spec (issue 29): the first single sign-on asks for a username (the spec's rules and
 * messages), prefilled with the provider's when it fits them. The address is the provider's.
 */
export function SsoWelcomePage() {
  const navigate = useNavigate();
  const signup = useSsoSignup();
  const complete = useCompleteSsoSignup();
  useDocumentTitle(COPY.sso.welcomeTitle);
  const [typed, setTyped] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);

  if (signup.isPending) {
    return (
      <AuthScreen>
        <Spinner label={COPY.sso.welcomeTitle} showLabel />
      </AuthScreen>
    );
  }
  if (signup.isError) {
    return (
      <AuthScreen>
        <ProblemCard id="welcome-title" title={COPY.sso.welcomeTitle} message={errorMessage(signup.error)}>
          <Link to={paths.login} className={button.primary}>
            {COPY.sso.toSignIn}
          </Link>
        </ProblemCard>
      </AuthScreen>
    );
  }

  const username = typed ?? signup.data.suggestedUsername;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (complete.isPending) return;
    complete.mutate(username.trim(), {
      onSuccess: () => void navigate(paths.home, { replace: true }),
      onError: (error) => setErrors(errorMessages(error)),
    });
  }

  return (
    <AuthScreen>
      <form className={styles.card} onSubmit={submit} noValidate aria-labelledby="welcome-title">
        <h2 id="welcome-title" className={recovery.title}>
          {COPY.sso.welcomeTitle}
        </h2>
        <p className={recovery.intro}>{COPY.sso.welcomeIntro(signup.data.email)}</p>
        <TextField
          id="sso-username"
          label={COPY.login.usernamePlaceholder}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" className={button.primary}>
          {COPY.sso.create}
        </button>
        <FormErrors messages={errors} testId="sso-errors" />
      </form>
      {complete.isPending && <PopUp title={COPY.sso.creatingTitle} message={COPY.sso.creatingMessage} loading />}
    </AuthScreen>
  );
}
