import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider, useParams } from 'react-router';
import { LoginPage } from './features/auth/LoginPage';
import { RequireAuth } from './features/auth/RequireAuth';
import { NotFoundPage } from './features/errors/NotFoundPage';
import { HomePage } from './features/home/HomePage';
import { FollowListPage } from './features/people/FollowListPage';
import { ProfilePage } from './features/people/ProfilePage';
import { PostPage } from './features/posts/PostPage';
import { SearchPage } from './features/search/SearchPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { Spinner } from './ui/Spinner';

// The upload page carries the image compressor: load it only when someone posts.
const UploadPage = lazy(() => import('./features/upload/UploadPage').then((m) => ({ default: m.UploadPage })));
const AccountSettingsPage = lazy(() =>
  import('./features/settings/AccountSettingsPage').then((m) => ({ default: m.AccountSettingsPage })),
);

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner label="Loading" fullScreen />}>{children}</Suspense>;
}

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** The profile routes are /@{username}...: a first segment without the '@' is not a page. */
function Handle({ children }: { children: (username: string) => ReactNode }) {
  const { handle = '' } = useParams();
  if (!handle.startsWith('@') || handle.length < 2) return <NotFoundPage />;
  return children(handle.slice(1));
}

const router = createBrowserRouter([
  { path: '/', element: <RequireAuth><HomePage /></RequireAuth> },
  { path: '/login', element: <LoginPage /> },
  { path: '/search/:query', element: <SearchPage /> },
  { path: '/post/:id', element: <PostPage /> },
  { path: '/upload', element: <RequireAuth><Lazy><UploadPage /></Lazy></RequireAuth> },
  { path: '/settings', element: <RequireAuth><SettingsPage /></RequireAuth> },
  { path: '/settings/account', element: <RequireAuth><Lazy><AccountSettingsPage /></Lazy></RequireAuth> },
  { path: '/404/:error', element: <NotFoundPage /> },
  { path: '/404', element: <NotFoundPage /> },
  { path: '/:handle', element: <Handle>{(username) => <ProfilePage key={username} username={username} />}</Handle> },
  {
    path: '/:handle/followers',
    element: <Handle>{(username) => <FollowListPage key={username} username={username} side="followers" />}</Handle>,
  },
  {
    path: '/:handle/following',
    element: <Handle>{(username) => <FollowListPage key={username} username={username} side="following" />}</Handle>,
  },
  { path: '*', element: <NotFoundPage /> },
]);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
