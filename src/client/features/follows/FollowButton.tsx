import { useState } from 'react';
import * as COPY from '../../../shared/copy';
import button from '../../ui/button.module.css';
import { PopUp } from '../../ui/PopUp';
import { SignInPrompt } from '../../ui/SignInPrompt';
import { useCurrentUser } from '../../api/current-user';
import { useSetFollowing } from './api/follow';
import styles from './FollowButton.module.css';
import { useAddressToVerify, VerifyPrompt } from '../verify-email';

/**
 * 'Follow' / 'Unfollow'. Flips at once, then the server's answer decides the final state. If
 * the request fails the button flips back and the user is told (the original left it wrong).
 */
export function FollowButton({ username, following }: { username: string; following: boolean }) {
  const me = useCurrentUser();
  const [shown, setShown] = useState(following);
  const [failed, setFailed] = useState(false);
  const [askToSignIn, setAskToSignIn] = useState(false);
  // Issue 29: an account that must verify its address follows once it has (unfollowing is never held back).
  const verifyFirst = useAddressToVerify();
  const [askToVerify, setAskToVerify] = useState(false);

  // A new answer from the server (the prop) replaces what the button shows, during render:
  // React's way to adjust state to a prop without an extra pass.
  const [lastFollowing, setLastFollowing] = useState(following);
  if (following !== lastFollowing) {
    setLastFollowing(following);
    setShown(following);
  }

  const setFollowing = useSetFollowing(username);

  const click = () => {
    if (!me) return setAskToSignIn(true);
    const follow = !shown;
    if (follow && verifyFirst) return setAskToVerify(true);
    setShown(follow);
    setFollowing.mutate(follow, {
      onSuccess: (state) => setShown(state.following),
      onError: () => {
        setShown(!follow);
        setFailed(true);
      },
    });
  };

  return (
    <>
      <button
        type="button"
        className={shown ? `${button.secondary} ${styles.unfollow}` : button.primary}
        aria-pressed={shown}
        onClick={click}
      >
        {shown ? COPY.follow.unfollow : COPY.follow.follow}
      </button>
      {askToSignIn && <SignInPrompt onClose={() => setAskToSignIn(false)} />}
      {askToVerify && verifyFirst && <VerifyPrompt email={verifyFirst} onClose={() => setAskToVerify(false)} />}
      {failed && (
        <PopUp
          title={COPY.errorTitle}
          message={COPY.follow.failed}
          buttons={[{ label: COPY.close, onClick: () => setFailed(false) }]}
          onCancel={() => setFailed(false)}
        />
      )}
    </>
  );
}
