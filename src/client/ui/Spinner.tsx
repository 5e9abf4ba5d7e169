import styles from './Spinner.module.css';

interface SpinnerProps {
  label: string;
  fullScreen?: boolean;
  /** Show the label under the ring instead of only to screen readers. */
  showLabel?: boolean;
}

export function Spinner({ label, fullScreen = false, showLabel = false }: SpinnerProps) {
  return (
    <div className={fullScreen ? styles.fullScreen : styles.inline} role="status" aria-live="polite">
      <span className={styles.ring} aria-hidden="true" />
      <span className={showLabel ? styles.label : 'visually-hidden'}>{label}</span>
    </div>
  );
}
