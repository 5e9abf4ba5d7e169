import { useState, type FormEvent } from 'react';
import { useNavigate } from '../lib/router';
import * as COPY from '../../shared/copy';
import { paths } from '../paths';
import field from './field.module.css';
import { SearchIcon } from './icons';
import styles from './SearchBox.module.css';

/** The top-bar search box: Enter goes to /search/{query}. */
export function SearchBox({ initial = '' }: { initial?: string }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Sent as typed: people search treats outer spaces as "no people" (spec section 5).
    if (query.trim()) void navigate(paths.search(query));
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
        maxLength={100}
        className={`${field.input} ${styles.input}`}
        placeholder={COPY.feed.searchPlaceholder}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
    </form>
  );
}
