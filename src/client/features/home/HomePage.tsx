import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { COPY } from '../../../shared/copy';
import { paths } from '../../paths';
import field from '../../ui/field.module.css';
import { SearchIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { Notice } from '../errors/Notice';
import { Feed } from '../posts/components/Feed';
import styles from './HomePage.module.css';

type Tab = 'home' | 'university';

function SearchBox() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (query.trim()) navigate(paths.search(query.trim()));
  };
  return (
    <form role="search" className={styles.search} onSubmit={submit}>
      <SearchIcon />
      <label htmlFor="search" className="visually-hidden">
        {COPY.feed.searchPlaceholder}
      </label>
      <input
        id="search"
        type="search"
        enterKeyHint="search"
        className={`${field.input} ${styles.searchInput}`}
        placeholder={COPY.feed.searchPlaceholder}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
    </form>
  );
}

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
        {tab === 'university' && (
          <Notice title={COPY.feed.universityTitle} message={COPY.feed.universityMessage} />
        )}
      </div>
    </Page>
  );
}
