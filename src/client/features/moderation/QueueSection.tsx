import { useState } from 'react';
import { Link } from '../../lib/router';
import type { QueueItem } from '../../../shared/api/moderation';
import * as COPY from '../../../shared/copy';
import { REPORT_REASONS } from '../../../shared/moderation';
import { timeAgo } from '../../lib/relative-time';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { SkeletonRows } from '../../ui/Skeleton';
import { ActionDialog, type Asked } from './ActionDialog';
import { useQueue } from './api/moderation';
import { LoadMore } from './list-parts';
import styles from './ModerationPage.module.css';

function Item({ item, ask }: { item: QueueItem; ask: (asked: Asked) => void }) {
  const { post, user } = item;
  const target = post ? { postId: post.id } : { username: user.username };
  const shownReporters = item.reporters.length;
  return (
    <li className={styles.card} aria-labelledby={`item-${item.key}`}>
      <p className={styles.kind} id={`item-${item.key}`}>
        {/* First, so that a narrow card wraps the text after it, never the label away from its line. */}
        {item.newAccountsOnly && <span className={`${styles.badge} ${styles.lead}`}>{COPY.moderation.newAccountsOnly}</span>}
        {post ? COPY.moderation.reportedPost : COPY.moderation.reportedProfile} · {COPY.moderation.reportsCount(item.reports)} ·{' '}
        <time dateTime={item.latestAt}>{timeAgo(new Date(item.latestAt))}</time>
      </p>
      <div className={styles.content}>
        {post ? (
          <Link to={paths.post(post.id)} className={styles.thumbLink}>
            <img
              className={styles.thumb}
              src={post.image.variants[0]?.src ?? post.image.full}
              width={post.image.width}
              height={post.image.height}
              alt={post.description || `Photo by @${user.username}`}
              style={{ backgroundImage: `url("${post.image.placeholder}")` }}
            />
          </Link>
        ) : (
          <Avatar src={user.icon} username={user.username} size={64} />
        )}
        <div className={styles.text}>
          <Link to={paths.profile(user.username)} className={styles.handle}>
            @{user.username}
          </Link>
          {user.role !== 'member' && <span className={styles.badge}>{COPY.moderation.roles[user.role]}</span>}
          {post
            ? post.description && <p className={styles.body}>{post.description}</p>
            : user.bio && <p className={styles.body}>{user.bio}</p>}
        </div>
      </div>
      <ul className={styles.reasons} aria-label="Reasons">
        {item.reasons.map(({ reason, count }) => (
          <li key={reason} className={styles.reasonChip}>
            {REPORT_REASONS[reason]} <strong>{count}</strong>
          </li>
        ))}
      </ul>
      <div className={styles.reporters}>
        <span className={styles.muted}>{COPY.moderation.reportedBy}</span>
        <ul>
          {item.reporters.map((reporter) => (
            <li key={reporter.username}>
              <Link to={paths.profile(reporter.username)}>@{reporter.username}</Link>
              {reporter.details && <span className={styles.details}>: “{reporter.details}”</span>}
              {reporter.newAccount && <span className={styles.badge}>{COPY.moderation.newAccount}</span>}
            </li>
          ))}
          {item.reports > shownReporters && <li className={styles.muted}>{COPY.moderation.andMore(item.reports - shownReporters)}</li>}
        </ul>
      </div>
      {/* Moderators cannot act on admins, other moderators or themselves: the server refuses, so the buttons are not offered. */}
      {user.actionable && (
        <div className={styles.actions}>
          {post && (
            <button type="button" className={button.danger} onClick={() => ask({ kind: 'remove-post', postId: post.id })}>
              {COPY.moderation.removePost}
            </button>
          )}
          <button type="button" className={button.secondary} onClick={() => ask({ kind: 'suspend', target, username: user.username })}>
            {COPY.moderation.suspend}
          </button>
          <button type="button" className={button.secondary} onClick={() => ask({ kind: 'dismiss', target })}>
            {COPY.moderation.dismiss}
          </button>
        </div>
      )}
    </li>
  );
}

/**
 * Open reports grouped by target, the newest report first (those from new accounts only after
 * the rest, marked), with what can be done about each.
 */
export function QueueSection() {
  const queue = useQueue();
  const [asked, setAsked] = useState<Asked | null>(null);
  const items = queue.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="queue-heading">
      <h2 id="queue-heading" className="visually-hidden">
        {COPY.moderation.queue}
      </h2>
      {queue.isPending && <SkeletonRows count={3} />}
      {queue.isError && <FormErrors messages={[COPY.moderation.failed]} />}
      {queue.isSuccess && items.length === 0 && <p className={styles.empty}>{COPY.moderation.queueEmpty}</p>}
      {items.length > 0 && (
        <ul className={styles.cards} aria-label={COPY.moderation.queue}>
          {items.map((item) => (
            <Item key={item.key} item={item} ask={setAsked} />
          ))}
        </ul>
      )}
      <LoadMore query={queue} />
      {asked && <ActionDialog asked={asked} onClose={() => setAsked(null)} />}
    </section>
  );
}
