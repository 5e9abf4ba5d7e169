import type { ReactNode } from 'react';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

/** A sign-in screen's card saying what went wrong (a dead link, a step run out), and the way on (`children`). */
export function ProblemCard({ id, title, message, children }: { id: string; title: string; message: string; children: ReactNode }) {
  return (
    <section className={styles.card} aria-labelledby={id}>
      <h2 id={id} className={recovery.title}>
        {title}
      </h2>
      <p className={recovery.problem} role="alert">
        {message}
      </p>
      {children}
    </section>
  );
}
