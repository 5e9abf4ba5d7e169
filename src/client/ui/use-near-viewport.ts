import { useEffect, useRef, useState } from 'react';

/**
 * How far ahead of the screen images start loading. Chrome's own lazy loading reaches 1250 to
 * 2500 px ahead, which on a slow phone network fetches three screens of photos before the
 * first one is done; one shared observer with a short margin loads what is about to be seen.
 */
const MARGIN = '200px 0px';

type Listener = (near: boolean) => void;
const listeners = new Map<Element, Listener>();
let observer: IntersectionObserver | undefined;

function shared(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) listeners.get(entry.target)?.(true);
      }
    },
    { rootMargin: MARGIN },
  );
  return observer;
}

/** `near` turns true (and stays true) once the element comes within MARGIN of the viewport. */
export function useNearViewport<T extends Element>(initially = false) {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(initially);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const io = shared();
    listeners.set(element, (value) => value && setNear(true));
    io.observe(element);
    return () => {
      io.unobserve(element);
      listeners.delete(element);
    };
  }, [near]);
  return [ref, near] as const;
}
