import { useEffect, useRef } from 'react';

/** Calls back when the returned element nears the viewport: infinite scrolling. */
export function useOnVisible<T extends Element>(callback: () => void, enabled: boolean) {
  const ref = useRef<T>(null);
  const latest = useRef(callback);
  // Kept current after each render, so the observer (made once) always calls the newest callback.
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}
