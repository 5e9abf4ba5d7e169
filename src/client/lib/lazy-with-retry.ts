import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A screen's code that did not arrive: the connection dropped, or (`newVersion`) the server
 * now runs a newer build whose chunks have other names, so the one asked for is gone for good.
 */
export class ChunkLoadError extends Error {
  constructor(
    readonly newVersion: boolean,
    options: { cause: unknown },
  ) {
    super('A part of the app failed to load', options);
    this.name = 'ChunkLoadError';
  }
}

/** The entry script an index.html names: it changes with every build (content hash). */
function entryScript(root: ParentNode): string | undefined {
  return root.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src') ?? undefined;
}

/** Whether the server's index.html now names another build than the one running here. */
async function isNewVersionDeployed(): Promise<boolean> {
  const running = entryScript(document);
  if (!running) return false;
  try {
    const response = await fetch('/', { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) return false;
    const served = entryScript(new DOMParser().parseFromString(await response.text(), 'text/html'));
    return served !== undefined && served !== running;
  } catch {
    // Offline: the connection, not a deploy, is the likelier cause.
    return false;
  }
}

/**
 * React.lazy keeps a failed import forever: every later render throws the same error and the
 * chunk is never asked for again. This hands out a new lazy component once one has failed, so
 * the next mount (the error boundary's Retry, or coming back to the route) imports again.
 * Returns the component to use; a mounted screen must keep the one it took (App.tsx's page()
 * holds it in state), or a failure would re-render it with the fresh one and import again at
 * once, in a loop, instead of reaching the error boundary.
 */
export function lazyWithRetry<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  let current = create();
  function create(): LazyExoticComponent<ComponentType<Props>> {
    return lazy(() =>
      load().then(
        (Component) => ({ default: Component }),
        async (error: unknown) => {
          current = create();
          throw new ChunkLoadError(await isNewVersionDeployed(), { cause: error });
        },
      ),
    );
  }
  return () => current;
}
