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

/**
 * Where a grid card's hover actions show (PostGrid.module.css: a hover-capable pointer on the
 * desktop layout). Elsewhere they are never displayed, so a screen need not load their code.
 */
const HOVER_ACTIONS = window.matchMedia('(hover: hover) and (min-width: 1024px)');

function subscribeHover(onChange: () => void) {
  HOVER_ACTIONS.addEventListener('change', onChange);
  return () => HOVER_ACTIONS.removeEventListener('change', onChange);
}

export function useShowsHoverActions(): boolean {
  return useSyncExternalStore(subscribeHover, () => HOVER_ACTIONS.matches);
}
