import { useState, type MouseEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useCurrentUser } from '../api/current-user';
import { paths } from '../paths';
import { Avatar } from './Avatar';
import { HomeIcon, UploadIcon } from './icons';
import styles from './NavTabs.module.css';
import { SignInPrompt } from './SignInPrompt';

/** Tapping the tab you are already on does nothing (spec section 2). */
function stayIfCurrent(active: boolean) {
  return (event: MouseEvent) => {
    if (active) event.preventDefault();
  };
}

/**
 * The three destinations (home, upload, your profile) of both the phone's bottom bar and the
 * desktop's top bar, so that they behave the same: a signed-out visitor's profile tab asks them
 * to sign in.
 */
export function NavTabs() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [askToSignIn, setAskToSignIn] = useState(false);

  const ownProfile = user ? decodeURIComponent(pathname).replace(/\/(followers|following)$/, '') === paths.profile(user.username) : false;
  const active = pathname === paths.home ? 'home' : pathname === paths.upload ? 'upload' : ownProfile ? 'profile' : null;

  return (
    <>
      <Link
        to={paths.home}
        className={styles.tab}
        data-active={active === 'home'}
        aria-current={active === 'home' ? 'page' : undefined}
        onClick={stayIfCurrent(active === 'home')}
      >
        <HomeIcon />
        <span className="visually-hidden">Home</span>
      </Link>
      <Link
        to={paths.upload}
        className={styles.tab}
        data-active={active === 'upload'}
        aria-current={active === 'upload' ? 'page' : undefined}
        onClick={stayIfCurrent(active === 'upload')}
      >
        <UploadIcon />
        <span className="visually-hidden">Upload</span>
      </Link>
      {user ? (
        <Link
          to={paths.profile(user.username)}
          className={`${styles.tab} ${styles.profile}`}
          data-active={active === 'profile'}
          aria-current={active === 'profile' ? 'page' : undefined}
          onClick={stayIfCurrent(active === 'profile')}
        >
          <Avatar src={user.icon} username={user.username} size={30} />
          <span className="visually-hidden">Your profile</span>
        </Link>
      ) : (
        <button type="button" className={`${styles.tab} ${styles.profile}`} onClick={() => setAskToSignIn(true)}>
          <span className={styles.anonymous} aria-hidden="true" />
          <span className="visually-hidden">Your profile</span>
        </button>
      )}
      {askToSignIn && <SignInPrompt onClose={() => setAskToSignIn(false)} />}
    </>
  );
}
