import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { COPY } from '../../../shared/copy';
import { APP_NAME } from '../../app-name';
import { paths } from '../../paths';
import { ChevronIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { PopUp } from '../../ui/PopUp';
import { useSignOut } from '../auth/api/sign-out';
import styles from './SettingsPage.module.css';

export function SettingsPage() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [confirming, setConfirming] = useState(false);

  const confirmSignOut = () => {
    setConfirming(false);
    signOut.mutate(undefined, {
      onSuccess: () => navigate(paths.login, { replace: true }),
      onError: () => navigate(paths.notFound(COPY.settings.signOutFailed)),
    });
  };

  return (
    <Page title={COPY.settings.title} back>
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
            <button type="button" className={`${styles.row} ${styles.danger}`} onClick={() => setConfirming(true)}>
              {COPY.settings.signOut}
            </button>
          </li>
        </ul>
      </section>
      {confirming && (
        <PopUp
          title={COPY.settings.signOutTitle}
          message={COPY.settings.signOutMessage(APP_NAME)}
          buttons={[
            { label: COPY.settings.signOut, onClick: confirmSignOut, variant: 'danger' },
            { label: COPY.cancel, onClick: () => setConfirming(false), variant: 'secondary' },
          ]}
          onCancel={() => setConfirming(false)}
        />
      )}
    </Page>
  );
}
