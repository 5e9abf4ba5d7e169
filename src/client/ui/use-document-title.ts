import { useEffect } from 'react';
import { APP_NAME } from '../app-name';

/** The tab's title for a screen, e.g. "Upload · dormboard"; without one, just the product name. */
export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
