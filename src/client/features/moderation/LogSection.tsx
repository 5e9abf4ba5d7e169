import { Link } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { timeAgo } from '../../lib/relative-time';
import { paths } from '../../paths';
import { FormErrors } from '../../ui/FormErrors';
import { SkeletonRows } from '../../ui/Skeleton';
import { useModerationLog } from './api/moderation';
import { LoadMore } from './list-parts';
import styles from './ModerationPage.module.css';

/** Every moderation action, newest first: who, what, whom, when, and their note. */
export function LogSection() {
  const log = useModerationLog();
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading" className="visually-hidden">
        {COPY.moderation.log}
      </h2>
      {log.isPending && <SkeletonRows count={4} />}
      {log.isError && <FormErrors messages={[COPY.moderation.failed]} />}
      {log.isSuccess && entries.length === 0 && <p className={styles.empty}>{COPY.moderation.logEmpty}</p>}
      {entries.length > 0 && (
        <ol className={styles.log} aria-label={COPY.moderation.log}>
          {entries.map((entry) => (
            <li key={entry.id} className={styles.entry}>
              <p className={styles.entryLine}>
                <strong>{COPY.moderation.actions[entry.action]}</strong>
                {entry.targetUsername && (
                  <>
                    {' · '}
                    <Link to={paths.profile(entry.targetUsername)}>@{entry.targetUsername}</Link>
                  </>
                )}
              </p>
              <p className={styles.muted}>
                {COPY.moderation.by(entry.actor.includes(' ') ? entry.actor : `@${entry.actor}`)} ·{' '}
                <time dateTime={entry.at} title={new Date(entry.at).toUTCString()}>
                  {timeAgo(new Date(entry.at))}
                </time>
              </p>
              {entry.note && <p className={styles.body}>{entry.note}</p>}
            </li>
          ))}
        </ol>
      )}
      <LoadMore query={log} />
    </section>
  );
}
