import { Link } from '../lib/router';
import { APP_NAME } from '../app-name';
import { paths } from '../paths';
import { ActivityBell } from './ActivityBell';
import { NavTabs } from './NavTabs';
import { SearchBox } from './SearchBox';
import styles from './TopBar.module.css';

/**
 * The desktop's bar across the top of every screen: the product name (home), the search box and
 * the same three destinations as the phone's bottom bar, with the activity bell beside them
 * (issue 30; on a phone it is in the home page's header).
 */
export function TopBar({ query = '' }: { query?: string }) {
  return (
    <header className={styles.bar}>
      <div className={styles.inner}>
        <Link to={paths.home} className={styles.name}>
          {APP_NAME}
        </Link>
        <div className={styles.search}>
          {/* Keyed by the query: a new search page shows its own words. */}
          <SearchBox key={query} initial={query} />
        </div>
        <nav className={styles.nav} aria-label="Main">
          <ActivityBell />
          <NavTabs />
        </nav>
      </div>
    </header>
  );
}
