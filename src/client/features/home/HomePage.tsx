import { lazy, Suspense, useRef, useState, type ComponentType } from 'react';
import type { PostCard } from '../../../shared/api/posts';
import * as COPY from '../../../shared/copy';
import { ActivityBell } from '../../ui/ActivityBell';
import { Page } from '../../ui/Page';
import { useIsDesktop, useShowsHoverActions } from '../../ui/use-desktop';
import { useDocumentTitle } from '../../ui/use-document-title';
import { Notice } from '../errors';
import { Feed } from '../posts';
import styles from './HomePage.module.css';

type Tab = 'home' | 'university';

/**
 * Save on the feed's cards (issue 18). The boards code arrives after the first view rather than
 * in its bundle (which has a size budget); if it cannot load, the cards simply have no Save
 * (each post's page has it) instead of the feed failing. Only where a card's hover actions show
 * (a desktop with a pointer): on a phone they never do, and their code (seven requests) would
 * only hold up the first photos (issue 28).
 */
const CardSaveButton = lazy<ComponentType<{ post: PostCard }>>(() =>
  import('../boards').then(
    (boards) => ({ default: boards.CardSaveButton }),
    () => ({ default: () => null }),
  ),
);

export function HomePage() {
  const [tab, setTab] = useState<Tab>('home');
  const homeTab = useRef<HTMLButtonElement>(null);
  const showsSave = useShowsHoverActions();
  const desktop = useIsDesktop();
  useDocumentTitle();
  // Your University's Go Back returns to the Home tab (as the original did), not to the last page.
  const backToHome = () => {
    setTab('home');
    homeTab.current?.focus();
  };
  // A phone's header holds the search box and the activity bell (issue 30); a desktop's top bar has both.
  const bell = desktop ? undefined : <ActivityBell />;
  return (
    <Page search="" bar={bell}>
      <h1 className="visually-hidden">Home</h1>
      <div role="tablist" aria-label="Feeds" className={styles.tabs}>
        {(['home', 'university'] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            ref={id === 'home' ? homeTab : undefined}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            className={styles.tab}
            onClick={() => setTab(id)}
          >
            {id === 'home' ? COPY.feed.homeTab : COPY.feed.universityTab}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'home' && (
          <Feed
            cardAction={
              showsSave
                ? (post) => (
                    <Suspense fallback={null}>
                      <CardSaveButton post={post} />
                    </Suspense>
                  )
                : undefined
            }
          />
        )}
        {tab === 'university' && <Notice title={COPY.feed.universityTitle} message={COPY.feed.universityMessage} onBack={backToHome} />}
      </div>
    </Page>
  );
}
