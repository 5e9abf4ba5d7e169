import type { ReactNode } from 'react';
import { Navigate } from '../../lib/router';
import { paths } from '../../paths';
import { Spinner } from '../../ui/Spinner';
import { useCurrentUser } from '../../api/current-user';

/** Signed-out visitors go to /login (spec section 6); the history entry is replaced. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  if (user === undefined) return <Spinner label="Loading" fullScreen />;
  if (user === null) return <Navigate to={paths.login} replace />;
  return children;
}
