import button from './button.module.css';

/** What a paged list's query (useInfiniteQuery) gives LoadMore. */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** A paged list's next page, on a press: nothing while there is none, disabled while it loads. */
export function LoadMore({ query, label, className }: { query: PagedQuery; label: string; className?: string }) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className={className ? `${button.secondary} ${className}` : button.secondary}
      disabled={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      {label}
    </button>
  );
}
