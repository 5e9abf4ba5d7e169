import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type CSSProperties } from 'react';
import { Link, useParams } from '../../lib/router';
import type { PostDetail } from '../../../shared/api/posts';
import * as COPY from '../../../shared/copy';
import { POST_IMAGE_SIZES, postImageSrcSet } from '../../../shared/post-page';
import { isHttpLink } from '../../../shared/validation/post';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { Page } from '../../ui/Page';
import { ShareButton } from '../../ui/ShareButton';
import { Skeleton, SkeletonCards, SkeletonPost } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useCurrentUser } from '../../api/current-user';
import { ApiError } from '../../api/http';
import { CardSaveButton, SaveButton } from '../boards';
import { Notice } from '../errors';
import { FollowButton } from '../follows';
import { ReportButton } from '../moderation';
import { postQueries } from './api/queries';
import { DeletePostButton } from './components/DeletePostButton';
import { PostGrid } from './components/PostGrid';
import { descriptionWithoutTrailingTags } from './post-text';
import styles from './PostPage.module.css';
import { timeAgo } from '../../lib/relative-time';

/** `onShown`: the photo has loaded (or failed to) and been painted. */
function PostImage({ post, onShown }: { post: PostDetail; onShown: () => void }) {
  const { image } = post;
  const shown = () => requestAnimationFrame(onShown);
  return (
    <img
      onLoad={shown}
      onError={shown}
      className={styles.image}
      src={image.full}
      srcSet={postImageSrcSet(image)}
      sizes={POST_IMAGE_SIZES}
      width={image.width}
      height={image.height}
      alt={post.description || `Photo by @${post.author.username}`}
      fetchPriority="high"
      // The box is sized from the stored width and height before a byte of the photo arrives,
      // so nothing below it moves when it loads (CSS: aspect-ratio, width from --ratio).
      style={{ backgroundImage: `url("${image.placeholder}")`, '--ratio': image.width / image.height } as CSSProperties}
    />
  );
}

function Related({ id, load }: { id: string; load: boolean }) {
  const related = useQuery({ ...postQueries.related(id), enabled: load });
  return (
    <section className={styles.discover} aria-labelledby="discover">
      <h2 id="discover" className={styles.discoverTitle}>
        {COPY.post.discover}
      </h2>
      {related.isPending ? (
        <Skeleton label="Loading related posts">
          <SkeletonCards />
        </Skeleton>
      ) : (
        <PostGrid posts={related.data ?? []} label={COPY.post.discover} action={(post) => <CardSaveButton post={post} />} />
      )}
    </section>
  );
}

export function PostPage() {
  const { id = '' } = useParams();
  useDocumentTitle('Post');
  const me = useCurrentUser();
  const { data: post, isPending, isError, error } = useQuery(postQueries.detail(id));
  // The photo first: Discover and the Save button's boards are asked for once it shows, so
  // their requests (and their photos) do not share a slow network with it.
  const [shownId, setShownId] = useState<string>();

  if (isPending) {
    return (
      <Page back>
        <Skeleton label="Loading post">
          <SkeletonPost />
        </Skeleton>
      </Page>
    );
  }
  if (isError) {
    return (
      <Page back>
        <Notice title={COPY.post.missingTitle} message={COPY.post.missingMessage} />
        {/* Hidden by its author's block, it may still be reported by its link (issue 26). */}
        {error instanceof ApiError && error.status === 404 && <ReportButton target={{ postId: id }} />}
      </Page>
    );
  }

  const isAuthor = me?.uid === post.author.uid;
  const photoShown = shownId === post.id;
  const text = descriptionWithoutTrailingTags(post.description);
  return (
    <Page back>
      <article className={styles.post}>
        <div className={styles.media}>
          <PostImage post={post} onShown={() => setShownId(post.id)} />
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
          <div className={styles.actions}>
            <SaveButton postId={post.id} load={photoShown} />
            <ShareButton path={paths.post(post.id)} title={text || COPY.post.byLabel(post.author.username)} label={COPY.share.sharePost} />
          </div>
          {/* The one h1: what the post says, as a screen reader's heading list should name it. */}
          {text ? (
            <h1 className={styles.description}>{text}</h1>
          ) : (
            <h1 className="visually-hidden">{COPY.post.byLabel(post.author.username)}</h1>
          )}
          {post.hashtags.length > 0 && (
            <p className={styles.hashtags}>
              {post.hashtags.map((tag, index) => (
                <Fragment key={tag}>
                  {index > 0 && ' '}
                  <Link to={paths.search(tag)} className={styles.hashtag}>
                    #{tag}
                  </Link>
                </Fragment>
              ))}
            </p>
          )}
          <time className={styles.date} dateTime={post.createdAt}>
            {timeAgo(new Date(post.createdAt))}
          </time>
          {post.link && isHttpLink(post.link) && (
            <a className={button.primary} href={post.link} target="_blank" rel="noopener noreferrer ugc">
              {COPY.post.visitSite}
            </a>
          )}
          <ReportButton target={{ postId: post.id }} owner={post.author.username} />
        </div>
      </article>
      <Related id={post.id} load={photoShown} />
    </Page>
  );
}
