import { useState } from 'react';
import { COPY } from '../../../shared/copy';
import { Page } from '../../ui/Page';
import { Notice } from '../errors';
import { Feed } from '../posts';
import { SearchBox } from '../search';
import styles from './HomePage.module.css';

type Tab = 'home' | 'university';

export function HomePage() {
  const [tab, setTab] = useState<Tab>('home');
  return (
    <Page bar={<SearchBox />}>
      <h1 className="visually-hidden">Home</h1>
      <div role="tablist" aria-label="Feeds" className={styles.tabs}>
        {(['home', 'university'] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
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
        {tab === 'home' && <Feed />}
        {tab === 'university' && <Notice title={COPY.feed.universityTitle} message={COPY.feed.universityMessage} />}
      </div>
    </Page>
  );
}
