import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Fragment, useEffect } from 'react';
import { Link, useParams } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import { Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/use-document-title';
import { Skeleton, SkeletonCards, SkeletonRows } from '../../ui/Skeleton';
import { CardSaveButton } from '../boards';
import { EmptyState } from '../errors';
import { InfinitePostGrid } from '../posts';
import { searchQueries } from './api/search';
import styles from './SearchPage.module.css';

/** Line-break chances after '_' and '.', so a long name wraps between its parts (@coffee_ / lover_club). */
function breakableName(username: string) {
  return username.split(/(?<=[._])/u).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** Search errors are only logged (spec section 8): the page shows whatever did load. */
function useLogError(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.error(`${what} search failed`, error);
  }, [error, what]);
}

export function SearchPage() {
  const { query = '' } = useParams();
  const users = useQuery(searchQueries.users(query));
  const posts = useInfiniteQuery(searchQueries.posts(query));
  useLogError(users.error, 'People');
  useLogError(posts.error, 'Post');
  const loading = users.isPending || posts.isPending;
  useDocumentTitle(`Search: ${query}`);

  return (
    <Page back search={query} width="column">
      <h1 className={styles.title}>
        Results for <q>{query}</q>
      </h1>
      {loading && (
        <Skeleton label="Searching">
          <SkeletonRows count={2} />
          <SkeletonCards />
        </Skeleton>
      )}
      {users.data && users.data.length > 0 && (
        <section aria-labelledby="people" className={styles.people}>
          <h2 id="people" className={styles.heading}>
            People
          </h2>
          <ul className={styles.userList}>
            {users.data.map((user) => (
              <li key={user.uid}>
                <Link to={paths.profile(user.username)} className={styles.user}>
                  <Avatar src={user.icon} username={user.username} size={56} />
                  <span className={styles.username}>@{breakableName(user.username)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <InfinitePostGrid
        query={posts}
        label="Posts"
        action={(post) => <CardSaveButton post={post} />}
        // The page's own placeholder covers people and posts at once; errors are only logged.
        loading={null}
        failed={null}
        empty={!loading && <EmptyState message={COPY.feed.noResults} action={{ to: paths.home, label: COPY.feed.explore }} />}
      />
    </Page>
  );
}
