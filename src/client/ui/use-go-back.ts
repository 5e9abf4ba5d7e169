import { useNavigate } from '../lib/router';
import { paths } from '../paths';

/**
 * Every Back and Go Back: one step back in history, or home when this is the first page of ours
 * in the tab (opened from a shared link, a history step back would leave the app). The router
 * (lib/router.tsx, as React Router did) numbers its history entries in `history.state.idx`, from 0.
 */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(paths.home, { replace: true });
  };
}
