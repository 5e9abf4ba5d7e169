import { useState } from 'react';
import * as COPY from '../../../shared/copy';
import { useCurrentUser } from '../../api/current-user';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { useSetBlocked } from './api/blocks';
import styles from './ProfilePage.module.css';

/**
 * Block, on someone else's profile (issue 17): asks first, saying what a block does. Not shown
 * signed out, nor on your own profile.
 */
export function BlockButton({ username }: { username: string }) {
  const me = useCurrentUser();
  const setBlocked = useSetBlocked(username);
  const [asking, setAsking] = useState(false);
  if (!me || me.username === username) return null;

  const close = () => {
    setAsking(false);
    setBlocked.reset();
  };
  const confirm = () => setBlocked.mutate(true, { onSuccess: () => setAsking(false) });

  return (
    <>
      <button type="button" className={button.ghost} onClick={() => setAsking(true)}>
        {COPY.block.action}
      </button>
      {asking && (
        <PopUp
          title={COPY.block.title(username)}
          message={COPY.block.message}
          loading={setBlocked.isPending}
          onCancel={close}
          buttons={[
            { label: COPY.block.confirm, onClick: confirm, variant: 'danger' },
            { label: COPY.cancel, onClick: close },
          ]}
        >
          {setBlocked.isError && <FormErrors messages={[COPY.block.failed]} />}
        </PopUp>
      )}
    </>
  );
}

/** What the blocker sees on the profile of someone they blocked, in place of the follow control and the posts. */
export function BlockedNotice({ username }: { username: string }) {
  const setBlocked = useSetBlocked(username);
  return (
    <div className={styles.blocked}>
      <p>{COPY.block.blocked(username)}</p>
      <button type="button" className={button.secondary} disabled={setBlocked.isPending} onClick={() => setBlocked.mutate(false)}>
        {COPY.block.unblock}
      </button>
      {setBlocked.isError && <FormErrors messages={[COPY.block.failed]} />}
    </div>
  );
}
