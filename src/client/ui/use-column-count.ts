import { createContext, useContext, useSyncExternalStore } from 'react';
import { DENSITY_CAP, PHONE_CARD_WIDTH } from '../../shared/grid-images';

/** Masonry columns by viewport width: 2 on a phone, up to 5 on a wide screen. */
const BREAKPOINTS: Array<[query: string, columns: number]> = [
  ['(min-width: 1200px)', 5],
  ['(min-width: 900px)', 4],
  ['(min-width: 600px)', 3],
];

const queries = BREAKPOINTS.map(([query]) => window.matchMedia(query));

function current(): number {
  const index = queries.findIndex((query) => query.matches);
  return index === -1 ? 2 : BREAKPOINTS[index]![1];
}

function subscribe(onChange: () => void) {
  queries.forEach((query) => query.addEventListener('change', onChange));
  return () => queries.forEach((query) => query.removeEventListener('change', onChange));
}

/** The most columns a grid may have where it sits: a page's centered column holds fewer. */
export const MaxColumns = createContext(Infinity);

export function useColumnCount(): number {
  return Math.min(useSyncExternalStore(subscribe, current), useContext(MaxColumns));
}

/**
 * Grid photos are fetched for at most DENSITY_CAP device pixels per CSS pixel (shared/
 * grid-images.ts). Browsers multiply `sizes` by the screen's density, so the cap scales `sizes`
 * down instead.
 */
const scale = Math.min(1, DENSITY_CAP / (window.devicePixelRatio || 1));
const px = (css: string) => (scale === 1 ? css : `calc(${css} * ${scale.toFixed(3)})`);

/** The `sizes` attribute matching the breakpoints above (12px gutters, 1200px max content). */
export const GRID_IMAGE_SIZES = [
  `(min-width: 1200px) ${px('228px')}`,
  `(min-width: 900px) ${px('24vw')}`,
  `(min-width: 600px) ${px('32vw')}`,
  px(PHONE_CARD_WIDTH),
].join(', ');
