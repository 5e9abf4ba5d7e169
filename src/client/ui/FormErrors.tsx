import styles from './FormErrors.module.css';

/**
 * A form's problems, one per line, read out as they appear (like the sign-in screen's error
 * area, spec section 3). Empty takes no space.
 */
export function FormErrors({ messages, testId }: { messages: string[]; testId?: string }) {
  return (
    <p className={styles.errors} role="alert" data-testid={testId}>
      {messages.join('\n')}
    </p>
  );
}
