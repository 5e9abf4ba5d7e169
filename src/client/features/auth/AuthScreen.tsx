import type { ReactNode } from 'react';
import * as COPY from '../../../shared/copy';
import { APP_NAME } from '../../app-name';
import styles from './LoginPage.module.css';

/**
 * The sign-in screen's frame: the product's name and slogan beside a card (spec section 3). The
 * pages on the way back to signing in (a reset link's, "Forgot password?") are framed the same.
 */
export function AuthScreen({ children }: { children: ReactNode }) {
  return (
    <main className={styles.screen}>
      <section className={styles.hero}>
        <h1 className={styles.name}>{APP_NAME}</h1>
        <p className={styles.slogan}>
          {COPY.slogan} <span className="hashtag">{COPY.sloganTag}</span>
        </p>
      </section>
      {children}
    </main>
  );
}
