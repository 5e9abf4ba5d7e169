import { Link } from 'react-router';
import { COPY } from '../../../shared/copy';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useOnVisible } from '../../ui/use-on-visible';
import { useCurrentUser } from '../../api/current-user';
import { FollowButton } from '../follows';
import { PostGrid } from '../posts';
import { useProfile, useUserPosts } from './api/profile';
import { ProfileError } from './ProfileErrors';
import styles from './ProfilePage.module.css';

function UserPosts({ username }: { username: string }) {
  const posts = useUserPosts(username);
  const sentinel = useOnVisible<HTMLDivElement>(() => {
    if (!posts.isFetchingNextPage) void posts.fetchNextPage();
  }, posts.hasNextPage);
  if (posts.isPending) return <Spinner label="Loading posts" />;
  const list = posts.data?.pages.flatMap((page) => page.posts) ?? [];
  if (list.length === 0) return <p className={styles.empty}>{COPY.profile.noPosts}</p>;
  return (
    <>
      <PostGrid posts={list} label={`Posts by @${username}`} />
      <div ref={sentinel} />
      {posts.isFetchingNextPage && <Spinner label="Loading more posts" />}
    </>
  );
}

export function ProfilePage({ username }: { username: string }) {
  const me = useCurrentUser();
  const profile = useProfile(username.toLowerCase());
  const isMe = me?.username === username.toLowerCase();
  useDocumentTitle(`@${username.toLowerCase()}`);

  if (profile.isPending) {
    const label = isMe ? COPY.profile.loadingOwn : COPY.profile.loadingOther;
    return (
      <Page back={!isMe}>
        <Spinner label={label} showLabel fullScreen />
      </Page>
    );
  }
  if (profile.isError) {
    return (
      <Page back>
        <ProfileError error={profile.error} username={username} />
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
        ) : (
          <FollowButton username={user.username} following={user.followedByMe} />
        )}
      </header>
      <UserPosts username={user.username} />
    </Page>
  );
}
