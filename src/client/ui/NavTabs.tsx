import { useState, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from '../lib/router';
import { useCurrentUser } from '../api/current-user';
import { paths } from '../paths';
import { Avatar } from './Avatar';
import { HomeIcon, UploadIcon } from './icons';
import styles from './NavTabs.module.css';
import { SignInPrompt } from './SignInPrompt';

/**
 * One destination. Tapping the tab you are already on does nothing (spec section 2).
 */
export function Tab({
  to,
  current,
  label,
  className = styles.tab,
  children,
}: {
  to: string;
  current: boolean;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className={className}
      data-active={current}
      aria-current={current ? 'page' : undefined}
      onClick={(event: MouseEvent) => {
        if (current) event.preventDefault();
      }}
    >
      {children}
      <span className="visually-hidden">{label}</span>
    </Link>
  );
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

  const ownProfile = user
    ? decodeURIComponent(pathname).replace(/\/(followers|following|boards)$/, '') === paths.profile(user.username)
    : false;
  const active = pathname === paths.home ? 'home' : pathname === paths.upload ? 'upload' : ownProfile ? 'profile' : null;

  return (
    <>
      <Tab to={paths.home} current={active === 'home'} label="Home">
        <HomeIcon />
      </Tab>
      <Tab to={paths.upload} current={active === 'upload'} label="Upload">
        <UploadIcon />
      </Tab>
      {user ? (
        <Tab
          to={paths.profile(user.username)}
          current={active === 'profile'}
          label="Your profile"
          className={`${styles.tab} ${styles.profile}`}
        >
          <Avatar src={user.icon} username={user.username} size={30} />
        </Tab>
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
