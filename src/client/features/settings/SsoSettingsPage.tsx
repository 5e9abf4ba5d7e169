import { useState } from 'react';
import * as COPY from '../../../shared/copy';
import type { SsoStateResponse } from '../../../shared/api/sso';
import { urlOf } from '../../api/http';
import { errorMessages } from '../../lib/rejected';
import { useLocation } from '../../lib/router';
import { ssoRefusal } from '../../lib/sso-refusal';
import { SSO_NAME } from '../../server-meta';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useSsoState, useSsoUnlink } from './api/sso';
import { OnlyThroughSso } from './OnlyThroughSso';
import styles from './SecurityPages.module.css';

const longDate = new Intl.DateTimeFormat('en', { dateStyle: 'long' });

/**
 * Not in the spec (issue 29): Settings → Security → {OIDC_NAME}. Connect the university's
 * account (signed in, so it is this account that gets linked), or disconnect it when the account
 * has a password of its own to sign in with. When the provider last signed the account in, and,
 * if it refused to or has not for SSO_STALE_DAYS, that the university account may have ended:
 * an account that signs in only through it is told to add a password and an address of its own.
 */
export function SsoSettingsPage() {
  const name = SSO_NAME ?? '';
  const state = useSsoState();
  const unlink = useSsoUnlink();
  const { search } = useLocation();
  useDocumentTitle(name);
  const [errors, setErrors] = useState<string[]>(ssoRefusal);
  const [done, setDone] = useState(new URLSearchParams(search).get('linked') === '1' ? COPY.sso.justConnected(name) : '');

  const disconnect = () => {
    setDone('');
    unlink.mutate(undefined, {
      onSuccess: () => {
        setErrors([]);
        setDone(COPY.sso.disconnected(name));
      },
      onError: (error) => setErrors(errorMessages(error)),
    });
  };

  return (
    <Page title={name} back width="column">
      <div className={styles.form}>
        {state.isPending && <SkeletonRows count={1} />}
        {state.isError && <FormErrors messages={errorMessages(state.error)} />}
        {state.data && (
          <>
            <p className={styles.intro}>{state.data.linked ? COPY.sso.connected(name) : COPY.sso.notConnected(name)}</p>
            {state.data.linked ? (
              <>
                <p className={styles.intro}>{lastSignIn(name, state.data)}</p>
                {!state.data.hasPassword && <OnlyThroughSso name={name} />}
                <button
                  type="button"
                  className={button.secondary}
                  onClick={disconnect}
                  disabled={unlink.isPending || !state.data.hasPassword}
                >
                  {COPY.sso.disconnect(name)}
                </button>
              </>
            ) : (
              <a href={urlOf('ssoStart', undefined, { link: '1' })} className={button.primary}>
                {COPY.sso.connect(name)}
              </a>
            )}
          </>
        )}
        <p className={styles.intro} aria-live="polite">
          {done}
        </p>
        <FormErrors messages={errors} testId="sso-settings-errors" />
      </div>
    </Page>
  );
}

function lastSignIn(name: string, state: SsoStateResponse): string {
  if (state.refusedAt) return COPY.sso.refused(name, longDate.format(new Date(state.refusedAt)));
  const date = longDate.format(new Date(state.lastSignInAt!));
  return state.stale ? COPY.sso.stale(name, date) : COPY.sso.lastSignIn(name, date);
}
