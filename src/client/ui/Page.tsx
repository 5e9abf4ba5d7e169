import { useRef, type MouseEvent, type ReactNode } from 'react';
import { BottomNav } from './BottomNav';
import { BackIcon } from './icons';
import styles from './Page.module.css';
import { SearchBox } from './SearchBox';
import { TopBar } from './TopBar';
import { MaxColumns } from './use-column-count';
import { useIsDesktop } from './use-desktop';
import { useGoBack } from './use-go-back';

/** Post grids in a centered column (search results): cards about as wide as on the home feed. */
const COLUMN_GRID_COLUMNS = 3;

interface PageProps {
  /** The page's heading; shown in the page's own bar. */
  title?: string;
  /** Shows a back arrow: one step back in history, or home when there is none of ours. */
  back?: boolean;
  /** Extra content on the right of the page's bar, or instead of the title. */
  bar?: ReactNode;
  /**
   * The search box with these words: in the page's bar on a phone; on a desktop the top bar
   * always has it.
   */
  search?: string;
  /**
   * 'column' for forms and lists: a centered column on a wide screen rather than the full width;
   * 'form' for the upload form, whose photo and fields stand side by side there.
   */
  width?: 'wide' | 'column' | 'form';
  /** The navigation (bottom bar on a phone, top bar on a desktop); on by default. */
  nav?: boolean;
  children: ReactNode;
}

/** The frame of every screen: skip link, navigation, optional page bar, content. */
export function Page({ title, back = false, bar, search, width = 'wide', nav = true, children }: PageProps) {
  const goBack = useGoBack();
  const desktop = useIsDesktop();
  const main = useRef<HTMLElement>(null);
  const phoneSearch = search !== undefined && !desktop;
  const hasBar = Boolean(title || back || bar || phoneSearch);
  // Only the desktop's top bar is the page's banner; there the page's own bar is a heading row.
  const Bar = desktop ? 'div' : 'header';

  // Focus moves without touching the URL (a #main entry would be one more step for Back).
  const skipToContent = (event: MouseEvent) => {
    event.preventDefault();
    main.current?.focus();
  };

  return (
    <div className={styles.page} data-nav={nav} data-desktop={desktop}>
      <a href="#main" className={styles.skip} onClick={skipToContent}>
        Skip to content
      </a>
      {nav && desktop && <TopBar query={search} />}
      {/* Before the content in the page, though drawn at the bottom: with a full feed, Upload is
          a few Tab presses away rather than past every card. */}
      {nav && !desktop && <BottomNav />}
      {hasBar && (
        <Bar className={styles.bar} data-width={width}>
          {back && (
            <button type="button" className={styles.back} onClick={goBack}>
              <BackIcon />
              <span className="visually-hidden">Back</span>
            </button>
          )}
          {title && <h1 className={styles.title}>{title}</h1>}
          {phoneSearch && <SearchBox key={search} initial={search} />}
          {bar}
        </Bar>
      )}
      <main ref={main} id="main" tabIndex={-1} className={styles.main} data-width={width}>
        <MaxColumns.Provider value={width === 'column' ? COLUMN_GRID_COLUMNS : Infinity}>{children}</MaxColumns.Provider>
      </main>
    </div>
  );
}
