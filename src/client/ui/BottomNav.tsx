import styles from './BottomNav.module.css';
import { NavTabs } from './NavTabs';

/** The phone's navigation: the three destinations along the bottom of the screen. */
export function BottomNav() {
  return (
    <nav className={styles.nav} aria-label="Main">
      <NavTabs />
    </nav>
  );
}
