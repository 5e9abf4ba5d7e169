import type { ModeratedUser } from '../../../shared/api/moderation';
import * as COPY from '../../../shared/copy';
import { formatSuspensionEnd, isPermanent } from '../../../shared/moderation';
import { LoadMore as PagedLoadMore } from '../../ui/LoadMore';
import styles from './ModerationPage.module.css';

/* What the sections of /moderation share. */

/** When a suspension ends, in words ('December 1, 2026 at 9:30 AM UTC'), or 'permanently'. */
export function suspensionText(user: Pick<ModeratedUser, 'suspendedUntil'>): string {
  if (!user.suspendedUntil) return COPY.moderation.notSuspended;
  const until = new Date(user.suspendedUntil);
  return isPermanent(until) ? COPY.moderation.suspendedForGood : COPY.moderation.suspendedUntil(formatSuspensionEnd(until));
}

/** A list's "Load more" (every list here is paged: bounded cost however long it grows). */
export function LoadMore({ query }: { query: Parameters<typeof PagedLoadMore>[0]['query'] }) {
  return <PagedLoadMore query={query} label={COPY.moderation.loadMore} className={styles.more} />;
}
