import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ActivityGroup } from '../../../shared/api/activity';
import { ACTIVITY_COPY } from '../../../shared/activity-copy';
import { useCurrentUser } from '../../api/current-user';
import { unreadCountQuery } from '../../api/unread-count';
import button from '../../ui/button.module.css';
import { LoadMore } from '../../ui/LoadMore';
import notice from '../../ui/notice.module.css';
import { Page } from '../../ui/Page';
import { Skeleton, SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { EmptyState } from '../errors';
import { activityQuery, useMarkRead } from './api/activity';
import styles from './ActivityPage.module.css';
import { ActivityRow } from './components/ActivityRow';

/** A list that could not be read, with a way to ask again. */
function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className={notice.empty} role="alert">
      <p className={notice.emptyText}>{ACTIVITY_COPY.loadFailed}</p>
      <button type="button" className={button.secondary} onClick={onRetry}>
        {ACTIVITY_COPY.retry}
      </button>
    </div>
  );
}

/**
 * Not in the spec (issue 30): /activity, what others did that concerns you, grouped per target
 * and day, newest first. Visiting it reads the bell's count again (its query mounts here).
 */
export function ActivityPage() {
  useDocumentTitle(ACTIVITY_COPY.title);
  const me = useCurrentUser();
  const activity = useInfiniteQuery(activityQuery());
  // Read again on arriving; the bell (where one shows) keeps asking every minute, once.
  const unread = useQuery(unreadCountQuery());
  const markRead = useMarkRead();

  const groups = activity.data?.pages.flatMap((page) => page.groups) ?? [];
  const anyUnread = (unread.data ?? 0) > 0 || groups.some((group) => group.unread);
  const openRow = (group: ActivityGroup) => {
    if (group.unread) markRead.mutate(group.id);
  };
  const markAll = (
    <button
      type="button"
      className={`${button.secondary} ${styles.markAll}`}
      disabled={!anyUnread || markRead.isPending}
      onClick={() => markRead.mutate(undefined)}
    >
      {ACTIVITY_COPY.markAllRead}
    </button>
  );

  return (
    <Page title={ACTIVITY_COPY.title} back width="column" bar={markAll}>
      {activity.isPending && (
        <Skeleton>
          <SkeletonRows count={5} />
        </Skeleton>
      )}
      {activity.isError && !activity.data && <LoadFailed onRetry={() => void activity.refetch()} />}
      {activity.data && groups.length === 0 && <EmptyState message={ACTIVITY_COPY.empty} />}
      {me && groups.length > 0 && (
        <ul className={styles.list} aria-label={ACTIVITY_COPY.title}>
          {groups.map((group) => (
            <ActivityRow key={group.id} group={group} viewer={me.username} onOpen={openRow} />
          ))}
        </ul>
      )}
      {activity.isFetchNextPageError && <LoadFailed onRetry={() => void activity.fetchNextPage()} />}
      {!activity.isFetchNextPageError && <LoadMore query={activity} label={ACTIVITY_COPY.more} className={styles.more} />}
    </Page>
  );
}
