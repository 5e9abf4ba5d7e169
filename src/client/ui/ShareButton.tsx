import { useEffect, useRef, useState } from 'react';
import * as COPY from '../../shared/copy';
import button from './button.module.css';
import { ShareIcon } from './icons';
import styles from './ShareButton.module.css';

/** How long 'Link copied' stays: long enough to read, gone before it is in the way. */
const NOTICE_MS = 3000;

/**
 * Share (issue 31): the system's share sheet where the browser has the Web Share API (phones),
 * otherwise the page's address copied, with a notice read out by screen readers. `path` is the
 * app's own path; the link is absolute, on this origin.
 */
export function ShareButton({ path, title, label }: { path: string; title: string; label: string }) {
  const [notice, setNotice] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const show = (text: string) => {
    setNotice(text);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setNotice(null), NOTICE_MS);
  };

  const share = async () => {
    const url = new URL(path, window.location.origin).href;
    const data = { title, url };
    if (typeof navigator.share === 'function' && (navigator.canShare?.(data) ?? true)) {
      try {
        await navigator.share(data);
        return;
      } catch (error) {
        // Dismissed by the user: nothing to say. Anything else: copy instead.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      show(COPY.share.copied);
    } catch {
      show(COPY.share.copyFailed);
    }
  };

  return (
    <span className={styles.share}>
      <button type="button" className={button.secondary} aria-label={label} onClick={() => void share()}>
        <ShareIcon />
        {COPY.share.share}
      </button>
      {/* A live region, not a status: pages have a status only while they load (tests/e2e/a11y.spec.ts). */}
      <span className={styles.notice} aria-live="polite" data-testid="share-notice">
        {notice}
      </span>
    </span>
  );
}
