import { useParams } from 'react-router';
import { COPY } from '../../../shared/copy';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import styles from './NotFoundPage.module.css';

/** /404 and /404/{error}: the error text from the route, or 'Not found :('. */
export function NotFoundPage() {
  const { error } = useParams();
  useDocumentTitle(error || COPY.notFound);
  return (
    <Page width="column">
      <div className={styles.wrap}>
        <h1 className={styles.text}>{error || COPY.notFound}</h1>
      </div>
    </Page>
  );
}
