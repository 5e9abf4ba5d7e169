import { useSyncExternalStore } from 'react';

/** A hook that follows one media query, rendering again when it starts or stops matching. */
function mediaHook(query: string): () => boolean {
  const media = window.matchMedia(query);
  const subscribe = (onChange: () => void) => {
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  };
  return () => useSyncExternalStore(subscribe, () => media.matches);
}

/** The desktop layout (top bar instead of the bottom bar) from this width up; phones stay below. */
export const useIsDesktop = mediaHook('(min-width: 1024px)');

/**
 * Where a grid card's hover actions show (PostGrid.module.css: a hover-capable pointer on the
 * desktop layout). Elsewhere they are never displayed, so a screen need not load their code.
 */
export const useShowsHoverActions = mediaHook('(hover: hover) and (min-width: 1024px)');
