import styles from './Avatar.module.css';

/** A round profile picture, or the username's first letter when there is none. */
export function Avatar({ src, username, size = 40 }: { src: string | null; username: string; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.45 };
  if (src) {
    return <img className={styles.avatar} src={src} alt={`@${username}`} width={size} height={size} style={style} />;
  }
  return (
    <span className={`${styles.avatar} ${styles.fallback}`} style={style} role="img" aria-label={`@${username}`}>
      {username.charAt(0).toUpperCase()}
    </span>
  );
}
