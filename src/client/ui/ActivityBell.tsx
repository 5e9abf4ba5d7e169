import { ACTIVITY_COPY } from '../../shared/activity-copy';
import { useCurrentUser } from '../api/current-user';
import { useUnreadCount } from '../api/unread-count';
import { useLocation } from '../lib/router';
import { paths } from '../paths';
import styles from './ActivityBell.module.css';
import { BellIcon } from './icons';
import { Tab } from './NavTabs';

/** The badge's text: a phone's corner has room for three characters. */
const badgeText = (unread: number) => (unread > 99 ? '99+' : String(unread));

/**
 * Not in the spec (issue 30): the way to /activity, with how much is unread, beside the desktop's
 * navigation and in the phone's home header. Signed-in visitors only.
 */
export function ActivityBell() {
  const user = useCurrentUser();
  const { data: unread = 0 } = useUnreadCount(Boolean(user));
  const { pathname } = useLocation();
  if (!user) return null;
  const current = pathname === paths.activity;
  return (
    <Tab to={paths.activity} current={current} label={ACTIVITY_COPY.bell(unread)} className={styles.bell}>
      <BellIcon />
      {unread > 0 && (
        <span className={styles.badge} aria-hidden="true">
          {badgeText(unread)}
        </span>
      )}
    </Tab>
  );
}
