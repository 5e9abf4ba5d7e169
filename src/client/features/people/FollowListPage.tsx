import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import { Page } from '../../ui/Page';
import { Skeleton, SkeletonRows } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useOnVisible } from '../../ui/use-on-visible';
import { EmptyState } from '../errors';
import { profileQueries } from './api/profile';
import styles from './FollowListPage.module.css';
import { ProfileError } from './ProfileErrors';

/** /@{username}/followers and /following: one row per user, linking to their profile. */
export function FollowListPage({ username, side }: { username: string; side: 'followers' | 'following' }) {
  const list = useInfiniteQuery(profileQueries.followList(username.toLowerCase(), side));
  const sentinel = useOnVisible<HTMLDivElement>(() => {
    if (!list.isFetchingNextPage) void list.fetchNextPage();
  }, list.hasNextPage);
  const title = side === 'followers' ? COPY.profile.followers : COPY.profile.following;
  const handle = username.toLowerCase();
  useDocumentTitle(`${title} of @${handle}`);

  let content;
  if (list.isPending) {
    content = (
      <Skeleton label={`Loading ${title.toLowerCase()}`}>
        <SkeletonRows />
      </Skeleton>
    );
  } else if (list.isError) content = <ProfileError error={list.error} username={username} />;
  else {
    const users = list.data.pages.flatMap((page) => page.users);
    content =
      users.length === 0 ? (
        <EmptyState message={COPY.profile.noUsers} action={{ to: paths.profile(handle), label: COPY.profile.backTo(handle) }} />
      ) : (
        <ul className={styles.list}>
          {users.map((user) => (
            <li key={user.uid}>
              <Link to={paths.profile(user.username)} className={styles.row}>
                <Avatar src={user.icon} username={user.username} size={48} />
                <span>
                  <span className={styles.username}>@{user.username}</span>
                  <span className={styles.count}>{COPY.post.followers(user.followers)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      );
  }

  return (
    <Page title={title} back width="column">
      {content}
      <div ref={sentinel} />
      {list.isFetchingNextPage && (
        <Skeleton label="Loading more">
          <SkeletonRows count={2} />
        </Skeleton>
      )}
    </Page>
  );
}
