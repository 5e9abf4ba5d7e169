import { useSyncExternalStore } from 'react';

/** The desktop layout (top bar instead of the bottom bar) from this width up; phones stay below. */
const DESKTOP = window.matchMedia('(min-width: 1024px)');

function subscribe(onChange: () => void) {
  DESKTOP.addEventListener('change', onChange);
  return () => DESKTOP.removeEventListener('change', onChange);
}

export function useIsDesktop(): boolean {
  return useSyncExternalStore(subscribe, () => DESKTOP.matches);
}
