import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { validateSignIn } from '../../../shared/validation/sign-in';
import { normalizeSignUp, validateSignUp } from '../../../shared/validation/sign-up';
import { domainsMessage } from '../../../shared/registration';
import { paths } from '../../paths';
import { FORGOT_PASSWORD_OFFERED, REGISTRATION, SSO_NAME, SSO_ONLY } from '../../server-meta';
import { ssoRefusal } from '../../lib/sso-refusal';
import { SsoButton } from './SsoButton';
import { errorMessages } from '../../lib/rejected';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { TextField } from '../../ui/TextField';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useCurrentUser } from '../../api/current-user';
import { useSignIn } from './api/sign-in';
import { useSignUp } from './api/sign-up';
import { AuthScreen } from './AuthScreen';
import { IdentifierField } from './IdentifierField';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

type Mode = 'sign-in' | 'create';

/** What the create-account form says before anything is typed, where REGISTRATION limits sign-ups. */
const REGISTRATION_NOTE =
  REGISTRATION.mode === 'closed'
    ? ERRORS.SIGN_UPS_CLOSED
    : REGISTRATION.mode === 'sso'
      ? ERRORS.SIGN_UP_WITH_SSO
      : REGISTRATION.mode === 'domains'
        ? domainsMessage(REGISTRATION.emailDomains)
        : undefined;
const SIGN_UP_POLICY = REGISTRATION.mode === 'domains' ? { emailDomains: REGISTRATION.emailDomains } : {};

const USERNAME_RULES: readonly string[] = [ERRORS.USERNAME_SPACES, ERRORS.USERNAME_LENGTH, ERRORS.USERNAME_INVALID];

/** A username that passed the local rules still has one left: "already registered" (server). */
function usernameNeedsServer(username: string, problems: string[]) {
  return username !== '' && !problems.some((problem) => USERNAME_RULES.includes(problem));
}

export function LoginPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const signUp = useSignUp();
  const [mode, setMode] = useState<Mode>('sign-in');
  useDocumentTitle(mode === 'sign-in' ? 'Sign in' : 'New account');
  const [identifier, setIdentifier] = useState('');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [inviteCode, setInviteCode] = useState('');
  // A single sign-on that came back refused lands here with its code (issue 29).
  const [errors, setErrors] = useState<string[]>(ssoRefusal);
  const busy = signIn.isPending || signUp.isPending;
  // Who may sign up, said once: not again above the error that repeats it.
  const showNote = mode === 'create' && REGISTRATION_NOTE !== undefined && !errors.includes(REGISTRATION_NOTE);

  // SSO_ONLY (issue 29): the university sign-in first; the password form is for admins, behind a link.
  const [passwordShown, setPasswordShown] = useState(!SSO_ONLY);

  // Already signed in (e.g. the back button): nothing to do here.
  if (user && !busy) return <Navigate to={paths.home} replace />;
  if (SSO_NAME && !passwordShown) {
    return (
      <AuthScreen>
        <section className={styles.card} aria-label="Sign in">
          <SsoButton name={SSO_NAME} />
          <button type="button" className={recovery.textLink} onClick={() => setPasswordShown(true)}>
            {COPY.sso.adminSignIn}
          </button>
          <FormErrors messages={errors} testId="login-errors" />
        </section>
      </AuthScreen>
    );
  }

  const switchMode = (next: Mode) => {
    setMode(next);
    setErrors([]);
  };

  const onSuccess = () => void navigate(paths.home, { replace: true });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (mode === 'sign-in') {
      const body = { identifier, password };
      const problems = validateSignIn(body);
      setErrors(problems);
      if (problems.length === 0) {
        signIn.mutate(body, { onSuccess, onError: (error) => setErrors(errorMessages(error, [ERRORS.SIGN_IN_FAILED])) });
      }
    } else {
      if (REGISTRATION.mode === 'closed' || REGISTRATION.mode === 'sso') {
        setErrors([REGISTRATION_NOTE!]);
        return;
      }
      const body = {
        ...normalizeSignUp({ username, email, password }),
        ...(REGISTRATION.mode === 'invite' ? { inviteCode } : {}),
      };
      const problems = validateSignUp(body, {}, SIGN_UP_POLICY);
      setErrors(problems);
      // Only the server knows whether a well-formed username is taken, and the spec lists that
      // line before the e-mail's and password's: ask it even when other fields have problems.
      // It answers with every line (it runs the same rules), or the local ones stand.
      if (problems.length === 0 || usernameNeedsServer(body.username, problems)) {
        const fallback = problems.length > 0 ? problems : [ERRORS.SIGN_UP_FAILED];
        signUp.mutate(body, { onSuccess, onError: (error) => setErrors(errorMessages(error, fallback)) });
      }
    }
  };

  return (
    <AuthScreen>
      <form className={styles.card} onSubmit={submit} noValidate aria-label={mode === 'sign-in' ? 'Sign in' : 'Create account'}>
        {SSO_NAME && <SsoButton name={SSO_NAME} />}
        {mode === 'sign-in' ? (
          <IdentifierField value={identifier} onChange={setIdentifier} />
        ) : (
          <>
            <TextField
              id="username"
              label={COPY.login.usernamePlaceholder}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
            <TextField
              id="email"
              type="email"
              label={COPY.login.emailPlaceholder}
              autoComplete="email"
              aria-describedby={showNote ? 'registration-note' : undefined}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </>
        )}
        <TextField
          id="password"
          type="password"
          label={COPY.login.passwordPlaceholder}
          autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {mode === 'create' && REGISTRATION.mode === 'invite' && (
          <TextField
            id="invite-code"
            label={COPY.login.inviteCodePlaceholder}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={inviteCode}
            onChange={(e) => setInviteCode(e.target.value)}
          />
        )}
        {showNote && (
          <p className={styles.note} id="registration-note">
            {REGISTRATION_NOTE}
          </p>
        )}

        <div className={styles.actions}>
          {mode === 'sign-in' ? (
            <>
              {/* Keys keep React from turning this very button into the next mode's submit
                  button mid-click, which would submit the form. */}
              <button key="enter" type="submit" className={button.primary} disabled={busy}>
                {COPY.login.enter}
              </button>
              <button key="new" type="button" className={button.secondary} onClick={() => switchMode('create')}>
                {COPY.login.newAccount}
              </button>
            </>
          ) : (
            <>
              <button key="existing" type="button" className={button.secondary} onClick={() => switchMode('sign-in')}>
                {COPY.login.existingAccount}
              </button>
              <button key="create" type="submit" className={button.primary} disabled={busy}>
                {COPY.login.create}
              </button>
            </>
          )}
        </div>

        {/* Not in the spec (issue 16): only when the server can mail a reset link. */}
        {mode === 'sign-in' && FORGOT_PASSWORD_OFFERED && (
          <Link to={paths.forgotPassword} className={recovery.textLink}>
            {COPY.forgot.link}
          </Link>
        )}

        <FormErrors messages={errors} testId="login-errors" />
      </form>
    </AuthScreen>
  );
}
