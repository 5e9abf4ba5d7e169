import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Component, createRef, type ReactNode } from 'react';
import { useLocation } from '../lib/router';
import * as COPY from '../../shared/copy';
import { APP_NAME } from '../app-name';
import { ChunkLoadError } from '../lib/lazy-with-retry';
import button from './button.module.css';
import { Page } from './Page';
import notice from './notice.module.css';
import styles from './RouteErrorBoundary.module.css';

interface BoundaryProps {
  children: ReactNode;
  /** A new value (the next navigation) clears the error. */
  resetKey: string;
  queryClient: QueryClient;
}

interface BoundaryState {
  /** Separate from `error`: anything can be thrown, undefined included. */
  failed: boolean;
  error: unknown;
  resetKey: string;
  /** Retry was pressed here: if the screen fails again, focus goes back to the button. */
  retried: boolean;
}

function messageFor(error: unknown) {
  if (!(error instanceof ChunkLoadError)) return COPY.routeError.broken;
  return error.newVersion ? COPY.routeError.newVersion(APP_NAME) : COPY.routeError.offline;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, error: undefined, resetKey: this.props.resetKey, retried: false };

  private retryButton = createRef<HTMLButtonElement>();

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (props.resetKey === state.resetKey) return null;
    return { failed: false, error: undefined, resetKey: props.resetKey, retried: false };
  }

  override componentDidUpdate(_: BoundaryProps, previous: BoundaryState) {
    // The button pressed was unmounted while the screen loaded: a keyboard user would be left
    // at the top of the document.
    if (this.state.failed && !previous.failed && this.state.retried) this.retryButton.current?.focus();
  }

  private retry = () => {
    const { error } = this.state;
    if (error instanceof ChunkLoadError && error.newVersion) {
      // The old chunk is gone from the server: only a fresh index.html names the new ones.
      window.location.reload();
      return;
    }
    if (!(error instanceof ChunkLoadError)) {
      // The screen broke on something, most likely an answer from the server it could not
      // show: ask for the answers again rather than render the same ones.
      void this.props.queryClient.resetQueries();
    }
    // Mounting the screen again imports a failed chunk anew (lazyWithRetry).
    this.setState({ failed: false, error: undefined, retried: true });
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Page>
        <section className={`${notice.notice} ${styles.failed}`}>
          {/* Announced as it appears: the screen the user asked for did not come. */}
          <div role="alert">
            <h1 className={notice.title}>{COPY.routeError.title}</h1>
            <p className={`${notice.message} ${styles.message}`}>{messageFor(this.state.error)}</p>
          </div>
          {/* Not button.primary: white on the accent is 3.9:1, under WCAG's 4.5:1 for text. */}
          <button ref={this.retryButton} type="button" className={button.secondary} onClick={this.retry}>
            {COPY.routeError.retry}
          </button>
        </section>
      </Page>
    );
  }
}

/**
 * Around every route: a screen whose code fails to arrive, or that throws while rendering, is
 * replaced by a message with a Retry button, inside the usual frame so the navigation still works.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { key } = useLocation();
  const queryClient = useQueryClient();
  return (
    <Boundary resetKey={key} queryClient={queryClient}>
      {children}
    </Boundary>
  );
}
