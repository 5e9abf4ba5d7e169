import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../lib/router';
import type { BoardSummary } from '../../../shared/api/boards';
import { BOARD_COPY } from '../../../shared/boards-copy';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import notice from '../../ui/notice.module.css';
import { PlusIcon } from '../../ui/icons';
import { Skeleton, SkeletonCards } from '../../ui/Skeleton';
import { useOnVisible } from '../../ui/use-on-visible';
import { boardQueries } from './api/queries';
import { BoardCover, SecretMark } from './components/BoardCover';
import { NewBoardDialog } from './components/NewBoardDialog';
import styles from './UserBoards.module.css';

/** Tiles are 2 across on a phone, up to 6 on a wide screen (UserBoards.module.css). */
const TILE_SIZES = '(min-width: 1200px) 190px, (min-width: 900px) 24vw, (min-width: 600px) 32vw, calc(50vw - 18px)';

function BoardTile({ board }: { board: BoardSummary }) {
  // The whole tile is the link's target (its ::after covers the tile), while the link itself
  // holds only the name: read as "Dorm ideas, link", then the count and Secret as text.
  return (
    <li className={styles.tile}>
      <BoardCover cover={board.cover} alt={board.name} sizes={TILE_SIZES} className={styles.cover} />
      <Link to={paths.board(board.owner.username, board.slug)} className={styles.link}>
        {board.name}
      </Link>
      <span className={styles.meta}>
        <span>{BOARD_COPY.count(board.count)}</span>
        {board.secret && <SecretMark label={BOARD_COPY.secretBadge} />}
      </span>
    </li>
  );
}

/**
 * A profile's Boards tab: the boards they own or joined (secret ones only to their owner and
 * members: the server leaves the rest out), most recently saved to first, more as you scroll.
 * Your own tab starts with New board.
 */
export function UserBoards({ username, isMe }: { username: string; isMe: boolean }) {
  const boards = useInfiniteQuery(boardQueries.userBoards(username));
  const [creating, setCreating] = useState(false);
  const sentinel = useOnVisible<HTMLDivElement>(() => {
    if (!boards.isFetchingNextPage) void boards.fetchNextPage();
  }, boards.hasNextPage);

  if (boards.isPending) {
    return (
      <Skeleton label="Loading boards">
        <SkeletonCards count={4} />
      </Skeleton>
    );
  }
  if (boards.isError) {
    return (
      <div className={styles.failed}>
        <p>{BOARD_COPY.loadFailed}</p>
        <button type="button" className={button.secondary} onClick={() => void boards.refetch()}>
          {BOARD_COPY.retry}
        </button>
      </div>
    );
  }
  const list = boards.data.pages.flatMap((page) => page.boards);
  const openNewBoard = () => setCreating(true);
  return (
    <>
      {list.length === 0 ? (
        <div className={notice.empty}>
          <p className={notice.emptyText}>{isMe ? BOARD_COPY.noneOwn : BOARD_COPY.noneOther}</p>
          {isMe && (
            <button type="button" className={button.primary} onClick={openNewBoard}>
              <PlusIcon />
              {BOARD_COPY.newBoard}
            </button>
          )}
        </div>
      ) : (
        <ul className={styles.grid} aria-label={`Boards of @${username}`}>
          {/* Your own tab starts with a tile that makes a board. */}
          {isMe && (
            <li className={styles.tile}>
              <button type="button" className={styles.newTile} onClick={openNewBoard}>
                <PlusIcon size={28} />
                {BOARD_COPY.newBoard}
              </button>
            </li>
          )}
          {list.map((board) => (
            <BoardTile key={board.id} board={board} />
          ))}
        </ul>
      )}
      <div ref={sentinel} />
      {boards.isFetchingNextPage && (
        <Skeleton label="Loading more boards">
          <SkeletonCards count={2} />
        </Skeleton>
      )}
      {creating && <NewBoardDialog onClose={() => setCreating(false)} />}
    </>
  );
}
