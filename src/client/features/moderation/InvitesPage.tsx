import { useState, type FormEvent } from 'react';
import type { InviteInfo, NewInvite } from '../../../shared/api/invites';
import * as COPY from '../../../shared/copy';
import { INVITE_DEFAULT_DAYS, INVITE_DEFAULT_USES, INVITE_MAX_DAYS, INVITE_MAX_USES } from '../../../shared/registration';
import { ApiError } from '../../api/http';
import { errorMessages } from '../../lib/rejected';
import { REGISTRATION } from '../../server-meta';
import button from '../../ui/button.module.css';
import field from '../../ui/field.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { NotFoundPage } from '../errors';
import { useCreateInvite, useInvites, useRevokeInvite } from './api/invites';
import styles from './InvitesPage.module.css';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const until = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '');

/** A whole number typed in a number box, or undefined while it is not one in range. */
function count(text: string, max: number): number | undefined {
  const value = Number(text);
  return /^\d+$/.test(text.trim()) && value >= 1 && value <= max ? value : undefined;
}

/** A whole number from 1 to max, with its label shown (a placeholder would vanish under the number). */
function CountField({ label, max, value, onChange }: { label: string; max: number; value: string; onChange: (value: string) => void }) {
  return (
    <label className={styles.field}>
      <span className={styles.label}>{label}</span>
      <input
        className={field.input}
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * Not in the spec (issue 17): /moderation/invites, admins only (everyone else sees the not-found
 * page, as the API answers them 404). Make a code with its uses and days, see the live ones, and
 * revoke one. The new code is shown here once; the server keeps only its hash.
 */
export function InvitesPage() {
  useDocumentTitle(COPY.invites.title);
  const invites = useInvites();
  const create = useCreateInvite();
  const revoke = useRevokeInvite();
  const [uses, setUses] = useState(String(INVITE_DEFAULT_USES));
  const [days, setDays] = useState(String(INVITE_DEFAULT_DAYS));
  const [errors, setErrors] = useState<string[]>([]);
  const [made, setMade] = useState<NewInvite>();
  const [revoking, setRevoking] = useState<InviteInfo>();
  const [revokeFailed, setRevokeFailed] = useState(false);

  if (invites.error instanceof ApiError && invites.error.status === 404) return <NotFoundPage />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const body = { uses: count(uses, INVITE_MAX_USES), days: count(days, INVITE_MAX_DAYS) };
    const problems = [
      ...(body.uses === undefined ? [`${COPY.invites.uses}: 1–${INVITE_MAX_USES}`] : []),
      ...(body.days === undefined ? [`${COPY.invites.days}: 1–${INVITE_MAX_DAYS}`] : []),
    ];
    setErrors(problems);
    if (body.uses === undefined || body.days === undefined) return;
    create.mutate(
      { uses: body.uses, days: body.days },
      { onSuccess: setMade, onError: (error) => setErrors(errorMessages(error, [COPY.invites.createFailed])) },
    );
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    setRevokeFailed(false);
    revoke.mutate(revoking.id, { onError: () => setRevokeFailed(true) });
    setRevoking(undefined);
  };

  return (
    <Page title={COPY.invites.title} back width="column">
      <div className={styles.invites}>
        <p className={styles.intro}>{COPY.invites.intro}</p>
        {REGISTRATION.mode !== 'invite' && <p className={styles.intro}>{COPY.invites.notInviteMode}</p>}

        <form className={styles.form} onSubmit={submit} noValidate aria-label={COPY.invites.create}>
          <CountField label={COPY.invites.uses} max={INVITE_MAX_USES} value={uses} onChange={setUses} />
          <CountField label={COPY.invites.days} max={INVITE_MAX_DAYS} value={days} onChange={setDays} />
          <button type="submit" className={`${button.primary} ${styles.create}`} disabled={create.isPending}>
            {COPY.invites.create}
          </button>
        </form>
        <FormErrors messages={errors} testId="invite-errors" />

        {/* Read out when it appears: the one time the code is shown. */}
        <div aria-live="polite">
          {made && (
            <section className={styles.made} aria-label={COPY.invites.newCode}>
              <h2 className={styles.heading}>{COPY.invites.newCode}</h2>
              <p className={styles.code} data-testid="new-invite-code">
                {made.code}
              </p>
              <p className={styles.note}>{COPY.invites.newCodeNote(made.usesLeft, until(made.expiresAt))}</p>
            </section>
          )}
        </div>

        <h2 className={styles.heading}>{COPY.invites.live}</h2>
        {invites.isPending && <SkeletonRows count={2} />}
        {invites.isError && (
          <div>
            <FormErrors messages={[COPY.invites.loadFailed]} />
            <button type="button" className={button.secondary} onClick={() => void invites.refetch()}>
              {COPY.invites.retry}
            </button>
          </div>
        )}
        {invites.data?.length === 0 && <p className={styles.note}>{COPY.invites.none}</p>}
        {invites.data && invites.data.length > 0 && (
          <ul className={styles.list} aria-label={COPY.invites.live}>
            {invites.data.map((invite) => (
              <li key={invite.id} className={styles.invite}>
                <div className={styles.details}>
                  <p className={styles.uses}>{COPY.invites.usesLeft(invite.usesLeft)}</p>
                  <p className={styles.note}>
                    {invite.expiresAt && <time dateTime={invite.expiresAt}>{COPY.invites.expires(until(invite.expiresAt))}</time>}
                    {' · '}
                    {COPY.invites.madeBy(invite.createdBy)}
                  </p>
                </div>
                <button
                  type="button"
                  className={button.secondary}
                  onClick={() => setRevoking(invite)}
                  disabled={revoke.isPending && revoke.variables === invite.id}
                  aria-label={COPY.invites.revokeLabel(
                    COPY.invites.usesLeft(invite.usesLeft),
                    COPY.invites.expires(until(invite.expiresAt)),
                  )}
                >
                  {COPY.invites.revoke}
                </button>
              </li>
            ))}
          </ul>
        )}
        {revokeFailed && <FormErrors messages={[COPY.invites.revokeFailed]} />}
      </div>

      {revoking && (
        <PopUp
          title={COPY.invites.revokeTitle}
          message={COPY.invites.revokeMessage}
          buttons={[
            { label: COPY.invites.revoke, onClick: confirmRevoke, variant: 'danger' },
            { label: COPY.cancel, onClick: () => setRevoking(undefined) },
          ]}
          onCancel={() => setRevoking(undefined)}
        />
      )}
    </Page>
  );
}
