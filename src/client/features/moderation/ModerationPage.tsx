import type { ReactNode } from 'react';
import { Link } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { isStaff } from '../../../shared/moderation';
import { useCurrentUser } from '../../api/current-user';
import { paths } from '../../paths';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/use-document-title';
import { NotFoundPage } from '../errors';
import { LogSection } from './LogSection';
import styles from './ModerationPage.module.css';
import { PeopleSection } from './PeopleSection';
import { QueueSection } from './QueueSection';

export type ModerationSection = 'queue' | 'log' | 'people';

/**
 * The sections of /moderation, in the order of its nav. One more (Invites, for admins) is one
 * more entry here and a route in App.tsx; `adminOnly` sections are left out for moderators.
 */
const SECTIONS: Array<{ id: ModerationSection | 'invites'; to: string; label: string; adminOnly?: boolean }> = [
  { id: 'queue', to: paths.moderation, label: COPY.moderation.queue },
  { id: 'log', to: paths.moderationLog, label: COPY.moderation.log },
  { id: 'people', to: paths.moderationPeople, label: COPY.moderation.people },
  // A page of its own (InvitesPage), for admins only.
  { id: 'invites', to: paths.invites, label: COPY.invites.title, adminOnly: true },
];

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
