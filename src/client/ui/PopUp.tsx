import { useEffect, useRef } from 'react';
import styles from './PopUp.module.css';
import { Spinner } from './Spinner';

export interface PopUpButton {
  label: string;
  onClick: () => void;
  variant?: 'primary' | 'secondary' | 'danger';
}

export interface PopUpProps {
  title: string;
  message?: string;
  buttons?: PopUpButton[];
  loading?: boolean;
  /** Escape (and the browser's own dialog dismissal) calls this; without it the dialog stays. */
  onCancel?: () => void;
}

/**
 * The shared popup (spec section 2): title, message, optional buttons, optional loader. A modal
 * <dialog>: the page behind is inert, so focus stays inside; Escape means Cancel when there is one.
 * Mount it to show it, unmount it to close it.
 */
export function PopUp({ title, message, buttons = [], loading = false, onCancel }: PopUpProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    return () => dialog.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby="popup-title"
      aria-describedby={message ? 'popup-message' : undefined}
      aria-busy={loading || undefined}
      onCancel={(event) => {
        event.preventDefault();
        onCancel?.();
      }}
    >
      <h2 id="popup-title" className={styles.title}>
        {title}
      </h2>
      {message && (
        <p id="popup-message" className={styles.message}>
          {message}
        </p>
      )}
      {loading && <Spinner label={title} />}
      {buttons.length > 0 && (
        <div className={styles.buttons}>
          {buttons.map((button, index) => (
            <button
              key={button.label}
              type="button"
              className={`${styles.button} ${styles[button.variant ?? (index === 0 ? 'primary' : 'secondary')]}`}
              onClick={button.onClick}
              // A modal <dialog> focuses its autofocus element when it opens: HTML's own way to
              // pick a dialog's first focus, and what screen readers expect.
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus={index === 0}
            >
              {button.label}
            </button>
          ))}
        </div>
      )}
    </dialog>
  );
}
