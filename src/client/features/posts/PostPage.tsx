import { Link, useParams } from 'react-router';
import type { PostDetail } from '../../../shared/api/posts';
import { COPY } from '../../../shared/copy';
import { isHttpLink } from '../../../shared/validation/post';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useCurrentUser } from '../../api/current-user';
import { Notice } from '../errors';
import { FollowButton } from '../follows';
import { usePost, useRelatedPosts } from './api/post';
import { DeletePostButton } from './components/DeletePostButton';
import { PostGrid } from './components/PostGrid';
import styles from './PostPage.module.css';

function PostImage({ post }: { post: PostDetail }) {
  const { image } = post;
  const sources = [...image.variants, { src: image.full, width: image.width }];
  return (
    <img
      className={styles.image}
      src={image.full}
      srcSet={sources.map((source) => `${source.src} ${source.width}w`).join(', ')}
      sizes="(min-width: 900px) 55vw, 100vw"
      width={image.width}
      height={image.height}
      alt={post.description || `Photo by @${post.author.username}`}
      fetchPriority="high"
      style={{ backgroundImage: `url("${image.placeholder}")` }}
    />
  );
}

function Related({ id }: { id: string }) {
  const related = useRelatedPosts(id);
  return (
    <section className={styles.discover} aria-labelledby="discover">
      <h2 id="discover" className={styles.discoverTitle}>
        {COPY.post.discover}
      </h2>
      {related.isPending ? <Spinner label="Loading related posts" /> : <PostGrid posts={related.data ?? []} label={COPY.post.discover} />}
    </section>
  );
}

export function PostPage() {
  const { id = '' } = useParams();
  const me = useCurrentUser();
  const { data: post, isPending, isError } = usePost(id);

  if (isPending) {
    return (
      <Page back>
        <Spinner label="Loading post" fullScreen />
      </Page>
    );
  }
  if (isError) {
    return (
      <Page back>
        <Notice title={COPY.post.missingTitle} message={COPY.post.missingMessage} />
      </Page>
    );
  }

  const isAuthor = me?.uid === post.author.uid;
  return (
    <Page back>
      <article className={styles.post}>
        <div className={styles.media}>
          <PostImage post={post} />
        </div>
        <div className={styles.info}>
          <div className={styles.author}>
            <Link to={paths.profile(post.author.username)} className={styles.authorLink}>
              <Avatar src={post.author.icon} username={post.author.username} size={44} />
              <span>
                <span className={styles.handle}>@{post.author.username}</span>
                <span className={styles.followers}>{COPY.post.followers(post.author.followers)}</span>
              </span>
            </Link>
            {isAuthor ? (
              <DeletePostButton postId={post.id} />
            ) : (
              <FollowButton username={post.author.username} following={post.author.followedByMe} />
            )}
          </div>
          {post.description && <p className={styles.description}>{post.description}</p>}
          {post.hashtags.length > 0 && <p className={styles.hashtags}>{post.hashtags.map((tag) => `#${tag}`).join(' ')}</p>}
          {post.link && isHttpLink(post.link) && (
            <a className={button.primary} href={post.link} target="_blank" rel="noopener noreferrer ugc">
              {COPY.post.visitSite}
            </a>
          )}
        </div>
      </article>
      <Related id={post.id} />
    </Page>
  );
}
