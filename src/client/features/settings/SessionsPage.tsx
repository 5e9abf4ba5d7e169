import type { SessionInfo } from '../../../shared/api/sessions';
import * as COPY from '../../../shared/copy';
import { timeAgo } from '../../lib/relative-time';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useEndSession, useSessions } from './api/sessions';
import styles from './SecurityPages.module.css';
// The same bordered list as Settings' own rows.
import listStyles from './SettingsPage.module.css';
import { useSignOutDialog } from './use-sign-out-dialog';
import deviceRow from '../../ui/device-row.module.css';

/** "Firefox 133 on Windows", or as much of it as the User-Agent told. */
function deviceName({ browser, system }: SessionInfo): string {
  if (browser && system) return COPY.security.onSystem(browser, system);
  return browser ?? system ?? COPY.security.unknownBrowser;
}

/**
 * Not in the spec (issue 16): Settings → Security → Sessions. Every place the account is signed
 * in; any other one can be signed out here, and its next request is signed out. Signing out this
 * device asks first, as Settings' Sign Out does, and so does signing out everywhere.
 */
export function SessionsPage() {
  useDocumentTitle(COPY.settings.sessions);
  const sessions = useSessions();
  const endSession = useEndSession();
  const signOut = useSignOutDialog();

  const end = (session: SessionInfo) => {
    if (session.current) return signOut.ask('sign-out');
    endSession.mutate(session.id);
  };

  return (
    <Page title={COPY.settings.sessions} back width="column">
      <div className={styles.sessions}>
        <p className={styles.intro}>{COPY.security.sessionsIntro}</p>
        {sessions.isPending && <SkeletonRows count={3} />}
        {sessions.isError && (
          <div>
            <FormErrors messages={[COPY.security.sessionsFailed]} />
            <button type="button" className={button.secondary} onClick={() => void sessions.refetch()}>
              {COPY.security.retry}
            </button>
          </div>
        )}
        {sessions.data && (
          <ul className={listStyles.list} aria-label={COPY.settings.sessions}>
            {sessions.data.map((session) => {
              const ending = endSession.isPending && endSession.variables === session.id;
              return (
                <li key={session.id} className={deviceRow.row}>
                  <div className={deviceRow.text}>
                    <p className={deviceRow.name}>{deviceName(session)}</p>
                    <p className={deviceRow.when}>
                      {session.current && <span className={deviceRow.badge}>{COPY.security.thisDevice}</span>}
                      <time dateTime={session.signedInAt}>{COPY.security.signedIn(timeAgo(new Date(session.signedInAt)))}</time>
                      {' · '}
                      <time dateTime={session.lastActiveAt}>{COPY.security.lastActive(timeAgo(new Date(session.lastActiveAt)))}</time>
                    </p>
                  </div>
                  <button
                    type="button"
                    className={button.secondary}
                    onClick={() => end(session)}
                    disabled={ending}
                    aria-label={`${COPY.settings.signOut}: ${deviceName(session)}${session.current ? ` (${COPY.security.thisDevice})` : ''}`}
                  >
                    {COPY.settings.signOut}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {endSession.isError && <FormErrors messages={[COPY.security.signOutSessionFailed]} />}
        <button type="button" className={`${button.secondary} ${styles.everywhere}`} onClick={() => signOut.ask('everywhere')}>
          {COPY.settings.signOutEverywhere}
        </button>
      </div>
      {signOut.dialog}
    </Page>
  );
}
