import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { BottomNav } from './BottomNav';
import { BackIcon } from './icons';
import styles from './Page.module.css';

interface PageProps {
  /** The page's heading; shown in the top bar. */
  title?: string;
  /** Shows a back arrow that goes one step back in history. */
  back?: boolean;
  /** Extra content on the right of the top bar, or instead of the title. */
  bar?: ReactNode;
  /** The bottom navigation bar; on by default. */
  nav?: boolean;
  children: ReactNode;
}

/** The frame of every signed-in screen: optional top bar, content, bottom navigation. */
export function Page({ title, back = false, bar, nav = true, children }: PageProps) {
  const navigate = useNavigate();
  const hasBar = Boolean(title || back || bar);
  return (
    <div className={styles.page} data-nav={nav}>
      {hasBar && (
        <header className={styles.bar}>
          {back && (
            <button type="button" className={styles.back} onClick={() => navigate(-1)}>
              <BackIcon />
              <span className="visually-hidden">Back</span>
            </button>
          )}
          {title && <h1 className={styles.title}>{title}</h1>}
          {bar}
        </header>
      )}
      <main className={styles.main}>{children}</main>
      {nav && <BottomNav />}
    </div>
  );
}
