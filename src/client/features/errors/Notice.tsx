import { useNavigate } from 'react-router';
import { COPY } from '../../../shared/copy';
import button from '../../ui/button.module.css';
import styles from '../../ui/notice.module.css';

/** A full-width message with a Go Back button (history back): missing content, unfinished pages. */
export function Notice({ title, message }: { title: string; message: string }) {
  const navigate = useNavigate();
  return (
    <section className={styles.notice} aria-labelledby="notice-title">
      <h2 id="notice-title" className={styles.title}>
        {title}
      </h2>
      <p className={styles.message}>{message}</p>
      <button type="button" className={button.primary} onClick={() => navigate(-1)}>
        {COPY.goBack}
      </button>
    </section>
  );
}
