import { useEffect, useState, type MouseEvent } from 'react';
import { useSearchParams } from '../../lib/router';
import { urlOf } from '../../api/http';
import * as COPY from '../../../shared/copy';
import { ERRORS, isErrorCode } from '../../../shared/errors';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import styles from './DownloadDataPage.module.css';
import security from './SecurityPages.module.css';

/** How long the button stays disabled after a click: long enough that a double click is one download. */
const STARTING_MS = 8_000;

/**
 * Not in the spec (issue 16): Settings → Security → Download My Data.
 *
 * The button is a plain link to the ZIP: the browser downloads it itself, straight to disk with
 * its own progress, however large. A fetch() would have to hold the whole ZIP in memory before
 * saving it. A refused download (too many this hour, the server busy) comes back here as
 * ?error=<code> (server/accounts/export.routes.ts), shown as the form errors are.
 */
export function DownloadDataPage() {
  useDocumentTitle(COPY.settings.downloadData);
  const [params, setParams] = useSearchParams();
  const [starting, setStarting] = useState(false);
  const code = params.get('error');
  const refusal = code === null ? [] : [isErrorCode(code) ? ERRORS[code] : ERRORS.GENERIC];

  useEffect(() => {
    if (!starting) return;
    const timer = setTimeout(() => setStarting(false), STARTING_MS);
    return () => clearTimeout(timer);
  }, [starting]);

  function start(event: MouseEvent<HTMLAnchorElement>) {
    // One click, one download: each counts against the account's few an hour.
    if (starting) {
      event.preventDefault();
      return;
    }
    setStarting(true);
    if (code !== null) setParams({}, { replace: true });
  }

  return (
    <Page title={COPY.settings.downloadData} back width="column">
      <div className={security.form}>
        <p className={security.intro}>{COPY.dataExport.intro}</p>
        <p className={security.intro}>{COPY.dataExport.privacy}</p>
        <FormErrors messages={starting ? [] : refusal} testId="download-errors" />
        {/* Always there, so screen readers hear it fill; aria-live, as role=status marks the app's loading spinners. */}
        <p className={styles.status} aria-live="polite" data-testid="download-status">
          {starting ? COPY.dataExport.starting : ''}
        </p>
        <a
          href={urlOf('exportData')}
          className={`${button.primary} ${styles.download}`}
          aria-disabled={starting}
          onClick={start}
          data-testid="download-data"
        >
          {COPY.dataExport.download}
        </a>
        <h2 className={styles.heading} id="zip-contents">
          {COPY.dataExport.contains}
        </h2>
        <dl className={styles.files} aria-labelledby="zip-contents">
          {COPY.dataExport.files.map((file) => (
            <div key={file.name} className={styles.file}>
              <dt className={styles.name}>{file.name}</dt>
              <dd className={styles.what}>{file.what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </Page>
  );
}
