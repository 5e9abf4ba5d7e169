import { useEffect, useId, useState, type FormEvent } from 'react';
import * as COPY from '../../../shared/copy';
import { useCurrentUser } from '../../api/current-user';
import { errorMessage, errorMessages } from '../../lib/rejected';
import { Link } from '../../lib/router';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { TextField } from '../../ui/TextField';
import { useRefreshCurrentUser, useResendVerification, useVerifyCode } from './api';
import styles from './VerifyEmail.module.css';

/**
 * Not in the spec (issue 29): 'Check your inbox to verify {email}.', the mail's 6-digit code for a
 * phone that opens mail elsewhere, **Resend** and **Change address**. Verified, the account is
 * read again, and whatever screen showed this shows what it was for.
 */
export function VerifyEmailPanel({
  email,
  onVerified,
  offerChange = true,
}: {
  email: string;
  onVerified?: () => void;
  /** Off on Settings → E-mail Address itself, where the change form is. */
  offerChange?: boolean;
}) {
  const id = useId();
  const verify = useVerifyCode();
  const resend = useResendVerification();
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [status, setStatus] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (verify.isPending) return;
    setStatus('');
    verify.mutate(code, {
      onSuccess: () => {
        setErrors([]);
        onVerified?.();
      },
      onError: (error) => setErrors(errorMessages(error)),
    });
  }

  function sendAgain() {
    if (resend.isPending) return;
    setErrors([]);
    resend.mutate(undefined, {
      onSuccess: () => setStatus(COPY.verify.resent(email)),
      onError: (error) => setStatus(errorMessage(error)),
    });
  }

  return (
    <div className={styles.panel}>
      <p className={styles.message}>{COPY.verify.checkInbox(email)}</p>
      <form className={styles.codeForm} onSubmit={submit} noValidate>
        <TextField
          id={`${id}-code`}
          label={COPY.verify.codeLabel}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
        />
        <button type="submit" className={button.primary} disabled={verify.isPending}>
          {COPY.verify.submitCode}
        </button>
      </form>
      <FormErrors messages={errors} testId="verify-errors" />
      <div className={styles.actions}>
        <button type="button" className={button.secondary} onClick={sendAgain} disabled={resend.isPending}>
          {COPY.verify.resend}
        </button>
        {offerChange && (
          <Link to={paths.emailSettings} className={button.secondary}>
            {COPY.verify.changeAddress}
          </Link>
        )}
      </div>
      {/* A live region from the start, so what Resend did is announced (role=status is the app's "loading"). */}
      <p className={styles.status} aria-live="polite">
        {status}
      </p>
    </div>
  );
}

/** The address an account that must verify is waiting on, or undefined when it need not. */
export function useAddressToVerify(): string | undefined {
  const me = useCurrentUser();
  return me?.mustVerify ? (me.pendingEmail ?? me.email) : undefined;
}

/**
 * In place of a dialog an unverified account cannot use yet (Save, Report, Invite) or after a
 * Follow: the panel in a dialog. Opening it reads the account again, so an address verified on
 * another device lets the real dialog through at once.
 */
export function VerifyPrompt({ email, onClose }: { email: string; onClose: () => void }) {
  const refresh = useRefreshCurrentUser();
  useEffect(refresh, [refresh]);
  return (
    <PopUp title={COPY.verify.dialogTitle} buttons={[{ label: COPY.close, onClick: onClose, variant: 'secondary' }]} onCancel={onClose}>
      <VerifyEmailPanel email={email} />
    </PopUp>
  );
}

/** The Upload screen's notice, where its form would be (and Settings → E-mail Address's, without Change address). */
export function VerifyNotice({
  email,
  title = COPY.verify.dialogTitle,
  offerChange,
}: {
  email: string;
  title?: string;
  offerChange?: boolean;
}) {
  const id = useId();
  return (
    <section className={styles.notice} aria-labelledby={id}>
      <h2 id={id} className={styles.noticeTitle}>
        {title}
      </h2>
      <VerifyEmailPanel email={email} offerChange={offerChange} />
    </section>
  );
}
