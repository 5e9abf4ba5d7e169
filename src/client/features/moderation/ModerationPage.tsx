import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ModeratedUser } from '../../../shared/api/moderation';
import { COPY } from '../../../shared/copy';
import { isPermanent, isStaff } from '../../../shared/moderation';
import { useCurrentUser } from '../../api/current-user';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/use-document-title';
import { NotFoundPage } from '../errors/NotFoundPage';
import { LogSection } from './LogSection';
import styles from './ModerationPage.module.css';
import { PeopleSection } from './PeopleSection';
import { QueueSection } from './QueueSection';

export type ModerationSection = 'queue' | 'log' | 'people';

/**
 * The sections of /moderation, in the order of its nav. One more (Invites, for admins) is one
 * more entry here and a route in App.tsx; `adminOnly` sections are left out for moderators.
 */
const SECTIONS: Array<{ id: ModerationSection; to: string; label: string; adminOnly?: boolean }> = [
  { id: 'queue', to: paths.moderation, label: COPY.moderation.queue },
  { id: 'log', to: paths.moderationLog, label: COPY.moderation.log },
  { id: 'people', to: paths.moderationPeople, label: COPY.moderation.people },
];

/** When a suspension ends, in words ('December 1, 2026 at 9:30 AM UTC'), or 'permanently'. */
export function suspensionText(user: Pick<ModeratedUser, 'suspendedUntil'>): string {
  if (!user.suspendedUntil) return COPY.moderation.notSuspended;
  const until = new Date(user.suspendedUntil);
  return isPermanent(until) ? COPY.moderation.suspendedForGood : COPY.moderation.suspendedUntil(formatEnd(until));
}

const END_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const formatEnd = (until: Date) => `${END_FORMAT.format(until)} UTC`;

/** A list's "Load more" (every list here is paged: bounded cost however long it grows). */
export function LoadMore({ query }: { query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className={`${button.secondary} ${styles.more}`}
      disabled={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      {COPY.moderation.loadMore}
    </button>
  );
}

/**
 * /moderation (issue 17): the queue of open reports, the log of every action, and People
 * (roles, who is suspended). For moderators and admins; to everyone else, signed in or not, it
 * is the app's not-found page, as the API's 404 says.
 */
export function ModerationPage({ section }: { section: ModerationSection }) {
  const me = useCurrentUser();
  useDocumentTitle(COPY.moderation.title);
  if (me === undefined) return <Spinner label="Loading" fullScreen />;
  // A copy cached before roles existed has none: a member.
  if (!me || !isStaff(me.role ?? 'member')) return <NotFoundPage />;
  const sections = SECTIONS.filter((entry) => !entry.adminOnly || me.role === 'admin');
  let content: ReactNode;
  if (section === 'queue') content = <QueueSection />;
  else if (section === 'log') content = <LogSection />;
  else content = <PeopleSection isAdmin={me.role === 'admin'} />;
  return (
    <Page title={COPY.moderation.title} back width="column">
      <div className={styles.page}>
        <nav aria-label={COPY.moderation.title}>
          <ul className={styles.sections}>
            {sections.map((entry) => (
              <li key={entry.id}>
                <Link to={entry.to} className={styles.section} aria-current={entry.id === section ? 'page' : undefined}>
                  {entry.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {content}
      </div>
    </Page>
  );
}

/** A small piece of state for a confirmation dialog: what is being asked about, or nothing. */
export function useAsking<T>() {
  return useState<T | null>(null);
}
