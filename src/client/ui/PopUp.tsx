import { useLayoutEffect, useRef, type ReactNode } from 'react';
import styles from './PopUp.module.css';
import { Spinner } from './Spinner';

export interface PopUpButton {
  label: string;
  onClick: () => void;
  variant?: 'primary' | 'secondary' | 'danger';
  /** Focus this button when the dialog opens (default: the least destructive one, see below). */
  initialFocus?: boolean;
}

export interface PopUpProps {
  title: string;
  message?: string;
  buttons?: PopUpButton[];
  loading?: boolean;
  /** Escape, a tap outside (and the browser's own dialog dismissal) call this; without it the dialog stays. */
  onCancel?: () => void;
  /** A few fields between the message and the buttons (the Report dialog's reasons). */
  children?: ReactNode;
}

function isInside(element: Element, { clientX, clientY }: { clientX: number; clientY: number }) {
  const box = element.getBoundingClientRect();
  return clientX >= box.left && clientX <= box.right && clientY >= box.top && clientY <= box.bottom;
}

function variantOf(button: PopUpButton, index: number) {
  return button.variant ?? (index === 0 ? 'primary' : 'secondary');
}

/**
 * The button a dialog focuses when it opens: the least destructive one (Cancel, Close), so that
 * Enter never deletes or signs out by accident; a lone button (Home, Close) is that button.
 */
function initialFocusIndex(buttons: PopUpButton[]): number {
  const chosen = buttons.findIndex((button) => button.initialFocus);
  if (chosen >= 0) return chosen;
  const variants = buttons.map(variantOf);
  const secondary = variants.indexOf('secondary');
  if (secondary >= 0) return secondary;
  return Math.max(
    0,
    variants.findIndex((variant) => variant !== 'danger'),
  );
}

/**
 * The shared popup (spec section 2): title, message, optional buttons, optional loader. A modal
 * <dialog>: the page behind is inert, so focus stays inside; Escape means Cancel when there is one.
 * Mount it to show it, unmount it to close it.
 */
export function PopUp({ title, message, buttons = [], loading = false, onCancel, children }: PopUpProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const firstFocus = useRef<HTMLButtonElement>(null);

  // A layout effect: its cleanup runs while the dialog is still in the document, so closing it
  // and handing focus back happen before React removes it (a removed open dialog drops focus on
  // <body>, and keyboard users lose their place).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // Explicitly, after showModal: React applies autoFocus itself on mount, before the dialog is
    // shown, and showModal would then move focus to the first button (Delete, Sign Out).
    firstFocus.current?.focus();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  const focusIndex = initialFocusIndex(buttons);

  return (
    // The click handler is for the backdrop; the keyboard's way to cancel is Escape (onCancel).
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
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
      // A tap on the backdrop means Cancel too (phones have no Escape): the backdrop's clicks
      // reach the <dialog> itself, outside its box.
      onClick={(event) => {
        if (onCancel && event.target === event.currentTarget && !isInside(event.currentTarget, event)) onCancel();
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
      {children}
      {loading && <Spinner label={title} />}
      {buttons.length > 0 && (
        <div className={styles.buttons}>
          {buttons.map((button, index) => (
            <button
              key={button.label}
              type="button"
              className={`${styles.button} ${styles[variantOf(button, index)]}`}
              onClick={button.onClick}
              ref={index === focusIndex ? firstFocus : undefined}
            >
              {button.label}
            </button>
          ))}
        </div>
      )}
    </dialog>
  );
}
