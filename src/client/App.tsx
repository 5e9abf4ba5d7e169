import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Route, Switch, useParams } from './lib/router';
import { RequireAuth } from './features/auth/RequireAuth';
import { NotFoundPage } from './features/errors/NotFoundPage';
import { HomePage } from './features/home/HomePage';
import { lazyWithRetry } from './lib/lazy-with-retry';
import { queryClient } from './query-client';
import { RouteErrorBoundary } from './ui/RouteErrorBoundary';
import { Spinner } from './ui/Spinner';

/**
 * Only the home feed ships in the first bundle; every other screen is its own chunk, fetched
 * when first opened (the upload and settings screens also carry the image compressor).
 */
function page<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  const latest = lazyWithRetry(load);
  return function LazyPage(props: Props) {
    // Kept for this mount: a failed chunk reaches the error boundary, whose Retry mounts anew.
    const [Component] = useState(latest);
    return (
      <Suspense fallback={<Spinner label="Loading" fullScreen />}>
        <Component {...props} />
      </Suspense>
    );
  };
}

const LoginPage = page(() => import('./features/auth/LoginPage').then((m) => m.LoginPage));
const ResetPasswordPage = page(() => import('./features/auth/ResetPasswordPage').then((m) => m.ResetPasswordPage));
const ForgotPasswordPage = page(() => import('./features/auth/ForgotPasswordPage').then((m) => m.ForgotPasswordPage));
const SearchPage = page(() => import('./features/search/SearchPage').then((m) => m.SearchPage));
const PostPage = page(() => import('./features/posts/PostPage').then((m) => m.PostPage));
const UploadPage = page(() => import('./features/upload/UploadPage').then((m) => m.UploadPage));
const SettingsPage = page(() => import('./features/settings/SettingsPage').then((m) => m.SettingsPage));
const AccountSettingsPage = page(() => import('./features/settings/AccountSettingsPage').then((m) => m.AccountSettingsPage));
const ChangePasswordPage = page(() => import('./features/settings/ChangePasswordPage').then((m) => m.ChangePasswordPage));
const SessionsPage = page(() => import('./features/settings/SessionsPage').then((m) => m.SessionsPage));
const DownloadDataPage = page(() => import('./features/settings/DownloadDataPage').then((m) => m.DownloadDataPage));
const DeleteAccountPage = page(() => import('./features/settings/DeleteAccountPage').then((m) => m.DeleteAccountPage));
const BlockedAccountsPage = page(() => import('./features/settings/BlockedAccountsPage').then((m) => m.BlockedAccountsPage));
const ProfilePage = page(() => import('./features/people/ProfilePage').then((m) => m.ProfilePage));
const ModerationPage = page(() => import('./features/moderation/ModerationPage').then((m) => m.ModerationPage));
const FollowListPage = page(() => import('./features/people/FollowListPage').then((m) => m.FollowListPage));
const BoardPage = page(() => import('./features/boards/BoardPage').then((m) => m.BoardPage));
const VerifyEmailPage = page(() => import('./features/auth/VerifyEmailPage').then((m) => m.VerifyEmailPage));
const ClaimUsernamePage = page(() => import('./features/auth/ClaimUsernamePage').then((m) => m.ClaimUsernamePage));
const EmailSettingsPage = page(() => import('./features/settings/EmailSettingsPage').then((m) => m.EmailSettingsPage));
const SsoWelcomePage = page(() => import('./features/auth/SsoWelcomePage').then((m) => m.SsoWelcomePage));
const SsoSettingsPage = page(() => import('./features/settings/SsoSettingsPage').then((m) => m.SsoSettingsPage));
const ActivityPage = page(() => import('./features/activity/ActivityPage').then((m) => m.ActivityPage));
const NotificationSettingsPage = page(() => import('./features/activity/NotificationSettingsPage').then((m) => m.NotificationSettingsPage));
const InvitesPage = page(() => import('./features/moderation/InvitesPage').then((m) => m.InvitesPage));

/** The profile routes are /@{username}...: a first segment without the '@' is not a page. */
function Handle({ children }: { children: (username: string) => ReactNode }) {
  const { handle = '' } = useParams();
  if (!handle.startsWith('@') || handle.length < 2) return <NotFoundPage />;
  return children(handle.slice(1));
}

/** A signed-in screen: a signed-out visitor goes to /login. */
function SignedIn({ children, ...route }: { path: string; children: ReactNode }) {
  return (
    <Route {...route}>
      <RequireAuth>{children}</RequireAuth>
    </Route>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        {/* Whichever screen matched, a failure to load or render it stays inside it. */}
        <RouteErrorBoundary>
          {/* The first route that matches (case-insensitively, a trailing slash allowed): static paths first. */}
          <Switch>
            <SignedIn path="/">
              <HomePage />
            </SignedIn>
            <SignedIn path="/upload">
              <UploadPage />
            </SignedIn>
            <SignedIn path="/settings">
              <SettingsPage />
            </SignedIn>
            <SignedIn path="/settings/account">
              <AccountSettingsPage />
            </SignedIn>
            <SignedIn path="/settings/password">
              <ChangePasswordPage />
            </SignedIn>
            <SignedIn path="/settings/sessions">
              <SessionsPage />
            </SignedIn>
            <SignedIn path="/settings/data">
              <DownloadDataPage />
            </SignedIn>
            <SignedIn path="/settings/delete">
              <DeleteAccountPage />
            </SignedIn>
            <SignedIn path="/settings/blocked">
              <BlockedAccountsPage />
            </SignedIn>
            <SignedIn path="/settings/email">
              <EmailSettingsPage />
            </SignedIn>
            <SignedIn path="/settings/sso">
              <SsoSettingsPage />
            </SignedIn>
            {/* Issue 30: your notifications, and which of them reach you where. */}
            <SignedIn path="/activity">
              <ActivityPage />
            </SignedIn>
            <SignedIn path="/settings/notifications">
              <NotificationSettingsPage />
            </SignedIn>
            {/* Admins only: everyone else gets the not-found page (the API answers them 404). */}
            <SignedIn path="/moderation/invites">
              <InvitesPage />
            </SignedIn>
            <Route path="/login">
              <LoginPage />
            </Route>
            {/* Password recovery: signed out (a signed-in browser may use a link too). */}
            <Route path="/forgot-password">
              <ForgotPasswordPage />
            </Route>
            {/* Staff only: the page itself answers everyone else with the not-found page. */}
            <Route path="/moderation">
              <ModerationPage section="queue" />
            </Route>
            <Route path="/moderation/log">
              <ModerationPage section="log" />
            </Route>
            <Route path="/moderation/people">
              <ModerationPage section="people" />
            </Route>
            <Route path="/404">
              <NotFoundPage />
            </Route>
            <Route path="/404/:error">
              <NotFoundPage />
            </Route>
            <Route path="/reset/:token">
              <ResetPasswordPage />
            </Route>
            {/* A mailed verification link (issue 29): opened anywhere, signed in or not. */}
            <Route path="/verify/:token">
              <VerifyEmailPage />
            </Route>
            {/* A mailed link that gives a deleted account's held name back to its address's owner (issue 29). */}
            <Route path="/claim/:token">
              <ClaimUsernamePage />
            </Route>
            {/* A first single sign-on chooses its username (issue 29). */}
            <Route path="/sso/welcome">
              <SsoWelcomePage />
            </Route>
            <Route path="/search/:query">
              <SearchPage />
            </Route>
            <Route path="/post/:id">
              <PostPage />
            </Route>
            <Route path="/:handle">
              <Handle>{(username) => <ProfilePage key={username} username={username} />}</Handle>
            </Route>
            {/* Issue 18: a profile's Boards tab, and one board. */}
            <Route path="/:handle/boards">
              <Handle>{(username) => <ProfilePage key={username} username={username} tab="boards" />}</Handle>
            </Route>
            <Route path="/:handle/boards/:slug">
              <Handle>{(username) => <BoardPage key={username} username={username} />}</Handle>
            </Route>
            <Route path="/:handle/followers">
              <Handle>{(username) => <FollowListPage key={username} username={username} side="followers" />}</Handle>
            </Route>
            <Route path="/:handle/following">
              <Handle>{(username) => <FollowListPage key={username} username={username} side="following" />}</Handle>
            </Route>
            <Route>
              <NotFoundPage />
            </Route>
          </Switch>
        </RouteErrorBoundary>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
