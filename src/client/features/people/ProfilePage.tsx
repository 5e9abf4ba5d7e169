import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '../../lib/router';
import { CardSaveButton, UserBoards } from '../boards';
import * as COPY from '../../../shared/copy';
import { BOARD_COPY } from '../../../shared/boards-copy';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { Page } from '../../ui/Page';
import { Skeleton, SkeletonCards, SkeletonProfileHeader } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useCurrentUser } from '../../api/current-user';
import { ApiError } from '../../api/http';
import { EmptyState } from '../errors';
import { FollowButton } from '../follows';
import { ReportButton } from '../moderation';
import { InfinitePostGrid } from '../posts';
import { profileQueries } from './api/profile';
import { BlockButton, BlockedNotice } from './BlockButton';
import { ProfileError } from './ProfileErrors';
import styles from './ProfilePage.module.css';

function UserPosts({ username, isMe }: { username: string; isMe: boolean }) {
  const posts = useInfiniteQuery(profileQueries.posts(username));
  // Your own empty board invites a first post; someone else's points back to the feed.
  const action = isMe ? { to: paths.upload, label: COPY.upload.title, primary: true } : { to: paths.home, label: COPY.feed.explore };
  return (
    <InfinitePostGrid
      query={posts}
      label={`Posts by @${username}`}
      action={(post) => <CardSaveButton post={post} />}
      empty={<EmptyState message={COPY.profile.noPosts} action={action} />}
    />
  );
}

/** Posts (the spec's grid, at /@{username}) and Boards (issue 18): links, each its own address. */
function ProfileTabs({ username, tab }: { username: string; tab: 'posts' | 'boards' }) {
  return (
    <nav className={styles.tabs} aria-label={`@${username}`}>
      <Link to={paths.profile(username)} className={styles.tab} aria-current={tab === 'posts' ? 'page' : undefined}>
        {BOARD_COPY.postsTab}
      </Link>
      <Link to={paths.boards(username)} className={styles.tab} aria-current={tab === 'boards' ? 'page' : undefined}>
        {BOARD_COPY.boardsTab}
      </Link>
    </nav>
  );
}

export function ProfilePage({ username, tab = 'posts' }: { username: string; tab?: 'posts' | 'boards' }) {
  const me = useCurrentUser();
  const profile = useQuery(profileQueries.detail(username.toLowerCase()));
  const isMe = me?.username === username.toLowerCase();
  useDocumentTitle(`@${username.toLowerCase()}`);

  if (profile.isPending) {
    const label = isMe ? COPY.profile.loadingOwn : COPY.profile.loadingOther;
    return (
      <Page back={!isMe}>
        <Skeleton label={label} showLabel>
          <SkeletonProfileHeader />
          <SkeletonCards />
        </Skeleton>
      </Page>
    );
  }
  if (profile.isError) {
    return (
      <Page back>
        <ProfileError error={profile.error} username={username} />
        {/* Hidden by their block, they may still be reported by name (issue 26). */}
        {profile.error instanceof ApiError && profile.error.status === 404 && (
          <ReportButton target={{ username: username.toLowerCase() }} />
        )}
      </Page>
    );
  }

  const user = profile.data;
  return (
    <Page back={!isMe}>
      <header className={styles.header}>
        <Avatar src={user.icon} username={user.username} size={96} />
        <h1 className={styles.handle}>@{user.username}</h1>
        <nav className={styles.counts} aria-label="Connections">
          <Link to={paths.followers(user.username)}>
            <strong>{user.followers}</strong> {COPY.profile.followersCount(user.followers)}
          </Link>
          <Link to={paths.following(user.username)}>
            <strong>{user.following}</strong> {COPY.profile.followingCount}
          </Link>
        </nav>
        {user.bio && <p className={styles.bio}>{user.bio}</p>}
        {isMe ? (
          <Link to={paths.settings} className={button.secondary}>
            {COPY.profile.settings}
          </Link>
        ) : user.blockedByMe ? (
          <BlockedNotice username={user.username} />
        ) : (
          <FollowButton username={user.username} following={user.followedByMe} />
        )}
        <div className={styles.actions}>
          <ReportButton target={{ username: user.username }} owner={user.username} />
          {!user.blockedByMe && <BlockButton username={user.username} />}
        </div>
      </header>
      {/* Someone you blocked: none of their posts (the server sends none either). */}
      {!user.blockedByMe && (
        <>
          <ProfileTabs username={user.username} tab={tab} />
          {tab === 'posts' ? <UserPosts username={user.username} isMe={isMe} /> : <UserBoards username={user.username} isMe={isMe} />}
        </>
      )}
    </Page>
  );
}
