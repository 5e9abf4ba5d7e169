import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../lib/router';
import type { BlockedAccount } from '../../../shared/api/users';
import * as COPY from '../../../shared/copy';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { blockedAccountsQuery, useSetBlocked } from '../people';
import styles from './BlockedAccountsPage.module.css';
import securityStyles from './SecurityPages.module.css';
// The same bordered list as Settings' own rows.
import listStyles from './SettingsPage.module.css';

function BlockedRow({ user, onFailed }: { user: BlockedAccount; onFailed: () => void }) {
  const setBlocked = useSetBlocked(user.username);
  return (
    <li className={styles.row}>
      <Link to={paths.profile(user.username)} className={styles.person}>
        <Avatar src={user.icon} username={user.username} size={40} />
        <span className={styles.name}>@{user.username}</span>
      </Link>
      <button
        type="button"
        className={button.secondary}
        disabled={setBlocked.isPending}
        aria-label={COPY.block.unblockLabel(user.username)}
        onClick={() => setBlocked.mutate(false, { onError: onFailed })}
      >
        {COPY.block.unblock}
      </button>
    </li>
  );
}

/** Not in the spec (issue 17): Settings → Blocked Accounts, each with Unblock. */
export function BlockedAccountsPage() {
  useDocumentTitle(COPY.block.listTitle);
  const blocked = useQuery(blockedAccountsQuery());
  const [failed, setFailed] = useState(false);

  return (
    <Page title={COPY.block.listTitle} back width="column">
      <div className={securityStyles.sessions}>
        <p className={securityStyles.intro}>{COPY.block.listIntro}</p>
        {blocked.isPending && <SkeletonRows count={3} />}
        {blocked.isError && <FormErrors messages={[COPY.block.failed]} />}
        {blocked.data && blocked.data.length === 0 && <p className={styles.none}>{COPY.block.none}</p>}
        {blocked.data && blocked.data.length > 0 && (
          <ul className={listStyles.list} aria-label={COPY.block.listTitle}>
            {blocked.data.map((user) => (
              <BlockedRow key={user.uid} user={user} onFailed={() => setFailed(true)} />
            ))}
          </ul>
        )}
        {failed && <FormErrors messages={[COPY.block.failed]} />}
      </div>
    </Page>
  );
}
