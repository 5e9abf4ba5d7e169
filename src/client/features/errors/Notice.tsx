import * as COPY from '../../../shared/copy';
import button from '../../ui/button.module.css';
import styles from '../../ui/notice.module.css';
import { useGoBack } from '../../ui/use-go-back';

interface NoticeProps {
  title: string;
  message: string;
  /** What Go Back does when it is not a step back in history (or home, when there is none). */
  onBack?: () => void;
}

/** A full-width message with a Go Back button: missing content, unfinished pages. */
export function Notice({ title, message, onBack }: NoticeProps) {
  const goBack = useGoBack();
  return (
    <section className={styles.notice} aria-labelledby="notice-title">
      <h2 id="notice-title" className={styles.title}>
        {title}
      </h2>
      <p className={styles.message}>{message}</p>
      <button type="button" className={button.primary} onClick={onBack ?? goBack}>
        {COPY.goBack}
      </button>
    </section>
  );
}
