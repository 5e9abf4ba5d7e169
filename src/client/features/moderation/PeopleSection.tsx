import { useId, useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import type { ModeratedUser } from '../../../shared/api/moderation';
import * as COPY from '../../../shared/copy';
import { ROLES, type Role } from '../../../shared/moderation';
import { errorMessages } from '../../lib/rejected';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import field from '../../ui/field.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { SkeletonRows } from '../../ui/Skeleton';
import { TextField } from '../../ui/TextField';
import { ActionDialog, type Asked } from './ActionDialog';
import { useModerationAction, usePerson, useSuspended } from './api/moderation';
import { LoadMore, suspensionText } from './list-parts';
import styles from './ModerationPage.module.css';

/** One person: who they are, their role and suspension, and what the caller may do. */
function Person({ user, isAdmin, ask }: { user: ModeratedUser; isAdmin: boolean; ask: (asked: Asked) => void }) {
  const action = useModerationAction();
  const id = useId();
  const [role, setRole] = useState<Role>(user.role);
  const [problems, setProblems] = useState<string[]>([]);
  const [saved, setSaved] = useState('');
  const run = (kind: 'role' | 'unsuspend' | 'verify-email') => {
    setSaved('');
    action.mutate(kind === 'role' ? { kind, username: user.username, role } : { kind, username: user.username }, {
      onSuccess: () => {
        setProblems([]);
        setSaved(kind === 'role' ? COPY.moderation.roleSaved : kind === 'verify-email' ? COPY.moderation.emailVerifiedSaved : '');
      },
      onError: (error) => setProblems(errorMessages(error)),
    });
  };
  return (
    <li className={styles.card}>
      <div className={styles.content}>
        <Avatar src={user.icon} username={user.username} size={48} />
        <div className={styles.text}>
          <Link to={paths.profile(user.username)} className={styles.handle}>
            @{user.username}
          </Link>
          <span className={styles.badge}>{COPY.moderation.roles[user.role]}</span>
          <p className={styles.muted}>{suspensionText(user)}</p>
          {!user.emailVerified && <p className={styles.muted}>{COPY.moderation.emailNotVerified}</p>}
        </div>
      </div>
      {user.actionable && (
        <div className={styles.actions}>
          {isAdmin && (
            <>
              <label className="visually-hidden" htmlFor={`${id}-role`}>
                {COPY.moderation.role}
              </label>
              <select
                id={`${id}-role`}
                className={`${field.input} ${styles.select}`}
                value={role}
                onChange={(event) => setRole(event.target.value as Role)}
              >
                {ROLES.map((option) => (
                  <option key={option} value={option}>
                    {COPY.moderation.roles[option]}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className={button.secondary}
                disabled={action.isPending || role === user.role}
                onClick={() => run('role')}
              >
                {COPY.moderation.setRole}
              </button>
              {/* Issue 29: for accounts from before addresses were verified, or mail that never came. */}
              {!user.emailVerified && (
                <button type="button" className={button.secondary} disabled={action.isPending} onClick={() => run('verify-email')}>
                  {COPY.moderation.verifyEmail}
                </button>
              )}
            </>
          )}
          {user.suspendedUntil ? (
            isAdmin && (
              <button type="button" className={button.secondary} disabled={action.isPending} onClick={() => run('unsuspend')}>
                {COPY.moderation.lift}
              </button>
            )
          ) : (
            <button
              type="button"
              className={button.danger}
              onClick={() => ask({ kind: 'suspend', target: { username: user.username }, username: user.username })}
            >
              {COPY.moderation.suspend}
            </button>
          )}
        </div>
      )}
      {/* A live region from the start, so the saved message is announced when it appears. */}
      <p className={styles.muted} aria-live="polite">
        {saved}
      </p>
      <FormErrors messages={problems} />
    </li>
  );
}

/** Find someone by username (their role, their suspension), and everyone suspended now. */
export function PeopleSection({ isAdmin }: { isAdmin: boolean }) {
  const [typed, setTyped] = useState('');
  const [looked, setLooked] = useState('');
  const person = usePerson(looked);
  const suspended = useSuspended();
  const [asked, setAsked] = useState<Asked | null>(null);
  const find = (event: FormEvent) => {
    event.preventDefault();
    setLooked(typed.trim().replace(/^@/, '').toLowerCase());
  };
  const users = suspended.data?.pages.flatMap((page) => page.users) ?? [];
  return (
    <section aria-labelledby="people-heading" className={styles.people}>
      <h2 id="people-heading" className="visually-hidden">
        {COPY.moderation.people}
      </h2>
      <form className={styles.find} onSubmit={find} role="search">
        <TextField
          id="moderation-find"
          label={COPY.moderation.findPerson}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
        />
        <button type="submit" className={button.primary}>
          {COPY.moderation.find}
        </button>
      </form>
      {looked !== '' && person.isPending && <SkeletonRows count={1} />}
      {person.isError && <FormErrors messages={errorMessages(person.error)} />}
      {person.data && (
        <ul className={styles.cards}>
          <Person key={`${person.data.username}:${person.data.role}`} user={person.data} isAdmin={isAdmin} ask={setAsked} />
        </ul>
      )}
      <h3 className={styles.subheading}>{COPY.moderation.suspendedList}</h3>
      {suspended.isPending && <SkeletonRows count={2} />}
      {suspended.isError && <FormErrors messages={[COPY.moderation.failed]} />}
      {suspended.isSuccess && users.length === 0 && <p className={styles.empty}>{COPY.moderation.nobodySuspended}</p>}
      {users.length > 0 && (
        <ul className={styles.cards} aria-label={COPY.moderation.suspendedList}>
          {users.map((user) => (
            <Person key={`${user.username}:${user.suspendedUntil}`} user={user} isAdmin={isAdmin} ask={setAsked} />
          ))}
        </ul>
      )}
      <LoadMore query={suspended} />
      {asked && <ActionDialog asked={asked} onClose={() => setAsked(null)} />}
    </section>
  );
}
