import * as COPY from '../../../shared/copy';
import { Link } from '../../lib/router';
import { paths } from '../../paths';
import styles from './SecurityPages.module.css';

/** Graduation (issue 29 point 3): what keeps an account that signs in only through the provider. */
export function OnlyThroughSso({ name }: { name: string }) {
  return (
    <div className={styles.reminder} role="note">
      <p>{COPY.sso.onlyThrough(name)}</p>
      <p className={styles.reminderLinks}>
        <Link to={paths.changePassword}>{COPY.sso.addPassword}</Link>
        <Link to={paths.emailSettings}>{COPY.sso.addAddress}</Link>
      </p>
    </div>
  );
}
