import { Link } from '../../lib/router';
import button from '../../ui/button.module.css';
import styles from '../../ui/notice.module.css';

interface EmptyStateProps {
  message: string;
  /** The next step: where to go from an empty screen (upload, the feed, the profile). */
  action?: { to: string; label: string; primary?: boolean };
}

/** An empty list with a way on: a short line and one button, instead of a lone grey line. */
export function EmptyState({ message, action }: EmptyStateProps) {
  return (
    <div className={styles.empty}>
      <p className={styles.emptyText}>{message}</p>
      {action && (
        <Link to={action.to} className={action.primary ? button.primary : button.secondary}>
          {action.label}
        </Link>
      )}
    </div>
  );
}
