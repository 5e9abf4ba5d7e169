import styles from './Spinner.module.css';

export function Spinner({ label, fullScreen = false }: { label: string; fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? styles.fullScreen : styles.inline} role="status" aria-live="polite">
      <span className={styles.ring} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
