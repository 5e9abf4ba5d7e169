import { useState, type FormEvent } from 'react';
import * as COPY from '../../../shared/copy';
import { useCurrentUser } from '../../api/current-user';
import { errorMessages } from '../../lib/rejected';
import button from '../../ui/button.module.css';
import { CurrentPasswordField } from '../../ui/CurrentPasswordField';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { TextField } from '../../ui/TextField';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useChangeEmail, VerifyNotice } from '../verify-email';
import { paths } from '../../paths';
import styles from './SecurityPages.module.css';
import { SignInAgain } from './SignInAgain';

/**
 * Not in the spec (issue 29): Settings → Security → E-mail Address. The address, whether it is
 * verified, a new one waiting to be (with its code, Resend, and a way to keep the current one),
 * and the form for a new address, proved by the current password (an account made through
 * single sign-on, which has none, by a fresh sign-in there: its own address is how a graduate
 * keeps the account).
 */
export function EmailSettingsPage() {
  const me = useCurrentUser();
  const change = useChangeEmail();
  useDocumentTitle(COPY.settings.emailAddress);
  const [email, setEmail] = useState('');
  const [currentPassword, setCurrent] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [done, setDone] = useState<{ title: string; message: string } | null>(null);
  const [cancelling, setCancelling] = useState(false);

  function send(body: { email: string; currentPassword: string }, onDone: (pending: string | null) => void) {
    if (change.isPending) return;
    change.mutate(body, {
      onSuccess: ({ user }) => {
        setErrors([]);
        setEmail('');
        setCurrent('');
        onDone(user.pendingEmail);
      },
      onError: (error) => setErrors(errorMessages(error)),
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send({ email, currentPassword }, (pending) =>
      setDone(
        pending
          ? { title: COPY.emailSettings.changedTitle, message: COPY.emailSettings.changed(pending) }
          : { title: COPY.emailSettings.changedNowTitle, message: COPY.emailSettings.changedNow },
      ),
    );
  }

  if (!me) return null;
  const waiting = me.pendingEmail ?? (me.mustVerify ? me.email : null);
  return (
    <Page title={COPY.settings.emailAddress} back width="column">
      <div className={styles.form}>
        <p className={styles.intro}>
          {COPY.emailSettings.current}: <strong>{me.email}</strong> (
          {me.emailVerified ? COPY.emailSettings.verified : COPY.emailSettings.notVerified})
        </p>
        {me.pendingEmail && <p className={styles.intro}>{COPY.emailSettings.pending(me.pendingEmail)}</p>}
        {waiting && <VerifyNotice email={waiting} title={COPY.verify.settingsTitle} offerChange={false} />}
        {me.pendingEmail && (
          <button type="button" className={button.secondary} onClick={() => setCancelling(true)}>
            {COPY.emailSettings.cancelPending}
          </button>
        )}
      </div>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="change-email">
        <h2 id="change-email" className={styles.heading}>
          {COPY.emailSettings.changeHeading}
        </h2>
        <TextField
          id="new-email"
          label={COPY.emailSettings.newEmail}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        {me.hasPassword && (
          <CurrentPasswordField
            id="email-current-password"
            label={COPY.emailSettings.currentPassword}
            value={currentPassword}
            onChange={setCurrent}
          />
        )}
        <FormErrors messages={errors} testId="email-errors" />
        <SignInAgain errors={errors} page={paths.emailSettings} />
        <button type="submit" className={button.primary} disabled={change.isPending}>
          {COPY.emailSettings.submit}
        </button>
      </form>

      {change.isPending && <PopUp title={COPY.emailSettings.savingTitle} message={COPY.emailSettings.savingMessage} loading />}
      {done && (
        <PopUp
          title={done.title}
          message={done.message}
          buttons={[{ label: COPY.close, onClick: () => setDone(null) }]}
          onCancel={() => setDone(null)}
        />
      )}
      {cancelling && (
        <CancelPendingDialog
          askPassword={me.hasPassword}
          onCancel={() => setCancelling(false)}
          onConfirm={(password) => send({ email: me.email, currentPassword: password }, () => setCancelling(false))}
          errors={errors}
        />
      )}
    </Page>
  );
}

/** Keeping the current address drops the pending one; the password (if it has one) proves the owner asks. */
function CancelPendingDialog({
  askPassword,
  onCancel,
  onConfirm,
  errors,
}: {
  askPassword: boolean;
  onCancel: () => void;
  onConfirm: (password: string) => void;
  errors: string[];
}) {
  const [password, setPassword] = useState('');
  return (
    <PopUp
      title={COPY.emailSettings.cancelPending}
      buttons={[
        { label: COPY.emailSettings.cancelPending, onClick: () => onConfirm(password) },
        { label: COPY.cancel, onClick: onCancel },
      ]}
      onCancel={onCancel}
    >
      {askPassword && (
        <CurrentPasswordField
          id="cancel-current-password"
          label={COPY.emailSettings.currentPassword}
          value={password}
          onChange={setPassword}
        />
      )}
      <FormErrors messages={errors} testId="cancel-email-errors" />
      <SignInAgain errors={errors} page={paths.emailSettings} />
    </PopUp>
  );
}
