import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { COPY } from '../../../shared/copy';
import { APP_NAME } from '../../app-name';
import { paths } from '../../paths';
import { ChevronIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useSignOut } from '../auth';
import styles from './SettingsPage.module.css';

type Confirming = 'sign-out' | 'everywhere' | null;

/** Not in the spec (issue 16): the account's own security, each row a page of its own. */
const SECURITY_ROWS = [
  { to: paths.changePassword, label: COPY.settings.changePassword },
  { to: paths.sessions, label: COPY.settings.sessions },
  { to: paths.downloadData, label: COPY.settings.downloadData },
  { to: paths.deleteAccount, label: COPY.settings.deleteAccount, danger: true },
];

export function SettingsPage() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const signOutEverywhere = useSignOut({ everywhere: true });
  const [confirming, setConfirming] = useState<Confirming>(null);
  useDocumentTitle(COPY.settings.title);

  const confirm = () => {
    const mutation = confirming === 'everywhere' ? signOutEverywhere : signOut;
    setConfirming(null);
    mutation.mutate(undefined, {
      onSuccess: () => void navigate(paths.login, { replace: true }),
      onError: () => void navigate(paths.notFound(COPY.settings.signOutFailed)),
    });
  };
  const cancel = () => setConfirming(null);

  return (
    <Page title={COPY.settings.title} back width="column">
      <section className={styles.section} aria-labelledby="general">
        <h2 id="general" className={styles.heading}>
          {COPY.settings.general}
        </h2>
        <ul className={styles.list}>
          <li>
            <Link to={paths.accountSettings} className={styles.row}>
              {COPY.settings.accountSettings}
              <ChevronIcon />
            </Link>
          </li>
          <li>
            <button type="button" className={`${styles.row} ${styles.danger}`} onClick={() => setConfirming('sign-out')}>
              {COPY.settings.signOut}
            </button>
          </li>
          <li>
            <button type="button" className={`${styles.row} ${styles.danger}`} onClick={() => setConfirming('everywhere')}>
              {COPY.settings.signOutEverywhere}
            </button>
          </li>
        </ul>
      </section>
      <section className={styles.section} aria-labelledby="security">
        <h2 id="security" className={styles.heading}>
          {COPY.settings.security}
        </h2>
        <ul className={styles.list}>
          {SECURITY_ROWS.map((row) => (
            <li key={row.to}>
              <Link to={row.to} className={row.danger ? `${styles.row} ${styles.danger}` : styles.row}>
                {row.label}
                <ChevronIcon />
              </Link>
            </li>
          ))}
        </ul>
      </section>
      {confirming === 'sign-out' && (
        <PopUp
          title={COPY.settings.signOutTitle}
          message={COPY.settings.signOutMessage(APP_NAME)}
          buttons={[
            { label: COPY.settings.signOut, onClick: confirm, variant: 'danger' },
            { label: COPY.cancel, onClick: cancel, variant: 'secondary' },
          ]}
          onCancel={cancel}
        />
      )}
      {confirming === 'everywhere' && (
        <PopUp
          title={COPY.settings.signOutEverywhereTitle}
          message={COPY.settings.signOutEverywhereMessage}
          buttons={[
            { label: COPY.settings.signOutEverywhere, onClick: confirm, variant: 'danger' },
            { label: COPY.cancel, onClick: cancel, variant: 'secondary' },
          ]}
          onCancel={cancel}
        />
      )}
    </Page>
  );
}
