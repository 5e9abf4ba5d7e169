import { useParams } from '../../lib/router';
import { notFoundText } from '../../../shared/not-found-messages';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import styles from './NotFoundPage.module.css';

/** /404 and /404/{error}: the error text from the route if the app sends it, or 'Not found :('. */
export function NotFoundPage() {
  const text = notFoundText(useParams().error);
  useDocumentTitle(text);
  return (
    <Page width="column">
      <div className={styles.wrap}>
        <h1 className={styles.text}>{text}</h1>
      </div>
    </Page>
  );
}
