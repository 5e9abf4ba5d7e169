import { Link } from '../../lib/router';
import { ACTIVITY_COPY } from '../../../shared/activity-copy';
import * as COPY from '../../../shared/copy';
import { isStaff } from '../../../shared/moderation';
import { useCurrentUser } from '../../api/current-user';
import { paths } from '../../paths';
import { SSO_NAME } from '../../server-meta';
import { ChevronIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import styles from './SettingsPage.module.css';
import { OnlyThroughSso } from './OnlyThroughSso';
import { useSignOutDialog } from './use-sign-out-dialog';

/** Not in the spec (issue 16): the account's own security, each row a page of its own. */
const SECURITY_ROWS = [
  // Issue 29: the address, verified or not, and a new one; the university's sign-in when set up.
  { to: paths.emailSettings, label: COPY.settings.emailAddress },
  ...(SSO_NAME ? [{ to: paths.ssoSettings, label: SSO_NAME }] : []),
  { to: paths.changePassword, label: COPY.settings.changePassword },
  { to: paths.sessions, label: COPY.settings.sessions },
  { to: paths.downloadData, label: COPY.settings.downloadData },
  // Issue 17: undoing blocks.
  { to: paths.blockedAccounts, label: COPY.settings.blockedAccounts },
  { to: paths.deleteAccount, label: COPY.settings.deleteAccount, danger: true },
];

export function SettingsPage() {
  const signOut = useSignOutDialog();
  const me = useCurrentUser();
  useDocumentTitle(COPY.settings.title);

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
          {/* Issue 30: which notifications show in the app, which are pushed, and where. */}
          <li>
            <Link to={paths.notificationSettings} className={styles.row}>
              {ACTIVITY_COPY.settings}
              <ChevronIcon />
            </Link>
          </li>
          {/* Issue 17: moderators and admins find /moderation here; nobody else sees the row. */}
          {me && isStaff(me.role ?? 'member') && (
            <li>
              <Link to={paths.moderation} className={styles.row}>
                {COPY.moderation.settingsRow}
                <ChevronIcon />
              </Link>
            </li>
          )}
          <li>
            <button type="button" className={`${styles.row} ${styles.danger}`} onClick={() => signOut.ask('sign-out')}>
              {COPY.settings.signOut}
            </button>
          </li>
          <li>
            <button type="button" className={`${styles.row} ${styles.danger}`} onClick={() => signOut.ask('everywhere')}>
              {COPY.settings.signOutEverywhere}
            </button>
          </li>
        </ul>
      </section>
      <section className={styles.section} aria-labelledby="security">
        <h2 id="security" className={styles.heading}>
          {COPY.settings.security}
        </h2>
        {/* Issue 29 point 3: before the university account ends, a password and an address of its own. */}
        {SSO_NAME && me?.hasPassword === false && <OnlyThroughSso name={SSO_NAME} />}
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
      {signOut.dialog}
    </Page>
  );
}
