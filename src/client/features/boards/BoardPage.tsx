import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from '../../lib/router';
import type { BoardDetail, BoardPostCard } from '../../../shared/api/boards';
import * as COPY from '../../../shared/copy';
import { BOARD_COPY } from '../../../shared/boards-copy';
import { useCurrentUser } from '../../api/current-user';
import { ApiError } from '../../api/http';
import { errorMessages } from '../../lib/rejected';
import { paths } from '../../paths';
import { Avatar } from '../../ui/Avatar';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { Page } from '../../ui/Page';
import { ShareButton } from '../../ui/ShareButton';
import { Skeleton, SkeletonCards, SkeletonProfileHeader } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/use-document-title';
import { EmptyState, NotFoundPage, Notice } from '../errors';
import { InfinitePostGrid } from '../posts';
import { useSetBoardMember } from './api/board-member';
import { useSetBoardPost } from './api/board-post';
import { boardQueries } from './api/queries';
import { useJoinBoard } from './api/join-board';
import { useUpdateBoard } from './api/update-board';
import { SecretMark } from './components/BoardCover';
import { DeleteBoardDialog } from './components/DeleteBoardDialog';
import { EditBoardDialog } from './components/EditBoardDialog';
import { InviteDialog } from './components/InviteDialog';
import { CardSaveButton } from './components/SaveButton';
import styles from './BoardPage.module.css';

type Dialog = 'edit' | 'delete' | 'invite' | null;

/** The joined collaborators' faces after the owner's name ("@maya with ⓐⓑ"), each to their profile. */
function Members({ board }: { board: BoardDetail }) {
  const joined = board.members.filter((member) => member.joined);
  if (joined.length === 0) return null;
  return (
    <span className={styles.members}>
      {BOARD_COPY.with}
      <ul className={styles.avatars} aria-label={BOARD_COPY.collaborators}>
        {joined.map((member) => (
          <li key={member.username}>
            <Link to={paths.profile(member.username)} className={styles.avatarLink}>
              <Avatar src={member.icon} username={member.username} size={28} />
            </Link>
          </li>
        ))}
      </ul>
    </span>
  );
}

/** What the viewer may do here, by their role on the board (docs/boards.md, "Roles on a board"). */
function Actions({
  board,
  organizing,
  onOrganize,
  onDialog,
}: {
  board: BoardDetail;
  organizing: boolean;
  onOrganize: (on: boolean) => void;
  onDialog: (dialog: Dialog) => void;
}) {
  const me = useCurrentUser();
  const navigate = useNavigate();
  const join = useJoinBoard(board.id);
  const membership = useSetBoardMember(board.id);
  const [problems, setProblems] = useState<string[]>([]);
  const onError = (error: unknown) => setProblems(errorMessages(error));
  // Leaving or declining may take the board out of sight (a secret one): back to your own boards.
  const leave = () =>
    me &&
    membership.mutate({ username: me.username, member: false }, { onSuccess: () => void navigate(paths.boards(me.username)), onError });

  const organize = (
    <button
      type="button"
      className={organizing ? button.primary : button.secondary}
      aria-pressed={organizing}
      onClick={() => onOrganize(!organizing)}
    >
      {organizing ? BOARD_COPY.done : BOARD_COPY.organize}
    </button>
  );
  let buttons = null;
  if (board.role === 'owner') {
    buttons = (
      <>
        <button type="button" className={button.secondary} onClick={() => onDialog('edit')}>
          {BOARD_COPY.edit}
        </button>
        <button type="button" className={button.secondary} onClick={() => onDialog('invite')}>
          {BOARD_COPY.invite}
        </button>
        {board.count > 0 && organize}
        <button type="button" className={`${button.ghost} ${styles.delete}`} onClick={() => onDialog('delete')}>
          {BOARD_COPY.deleteBoard}
        </button>
      </>
    );
  } else if (board.role === 'collaborator') {
    buttons = (
      <>
        {board.count > 0 && organize}
        <button type="button" className={button.secondary} disabled={membership.isPending} onClick={leave}>
          {BOARD_COPY.leave}
        </button>
      </>
    );
  } else if (board.role === 'invited') {
    buttons = (
      <div className={styles.invitation}>
        <p>{BOARD_COPY.invitedNotice(board.owner.username)}</p>
        <div className={styles.actions}>
          <button type="button" className={button.primary} disabled={join.isPending} onClick={() => join.mutate(undefined, { onError })}>
            {BOARD_COPY.join}
          </button>
          <button type="button" className={button.secondary} disabled={membership.isPending} onClick={leave}>
            {BOARD_COPY.decline}
          </button>
        </div>
      </div>
    );
  }
  // Anyone who sees the board may pass its link on (a secret one opens only for its members).
  const share = (
    <ShareButton path={paths.board(board.owner.username, board.slug)} title={board.name} label={COPY.share.shareLabel(board.name)} />
  );
  return (
    <>
      <div className={styles.actions}>
        {board.role !== 'invited' && share}
        {buttons}
      </div>
      <FormErrors messages={problems} testId="board-errors" />
    </>
  );
}

/** Organize mode on a card: Make cover (owner) and Remove (owner: any; collaborator: what they saved). */
function CardTools({ board, post, onError }: { board: BoardDetail; post: BoardPostCard; onError: (error: unknown) => void }) {
  const update = useUpdateBoard(board);
  const remove = useSetBoardPost();
  const isOwner = board.role === 'owner';
  const isCover = board.coverPostId === post.id;
  return (
    <>
      {isOwner &&
        (isCover ? (
          <span className={styles.coverMark}>{BOARD_COPY.isCover}</span>
        ) : (
          <button
            type="button"
            className={`${button.secondary} ${styles.tool}`}
            aria-label={BOARD_COPY.makeCoverLabel(post.description)}
            disabled={update.isPending}
            onClick={() => update.mutate({ coverPostId: post.id }, { onError })}
          >
            {BOARD_COPY.makeCover}
          </button>
        ))}
      {(isOwner || post.savedByMe) && (
        <button
          type="button"
          className={`${button.danger} ${styles.tool}`}
          aria-label={BOARD_COPY.removeLabel(post.description)}
          disabled={remove.isPending}
          onClick={() => remove.mutate({ boardId: board.id, postId: post.id, saved: false }, { onError })}
        >
          {BOARD_COPY.remove}
        </button>
      )}
    </>
  );
}

function BoardPosts({ board, organizing }: { board: BoardDetail; organizing: boolean }) {
  const posts = useInfiniteQuery(boardQueries.posts(board.owner.username, board.slug));
  const update = useUpdateBoard(board);
  const [problems, setProblems] = useState<string[]>([]);
  const onError = (error: unknown) => setProblems(errorMessages(error));
  return (
    <InfinitePostGrid
      query={posts}
      label={`Posts on ${board.name}`}
      actionShown={organizing ? 'always' : 'hover'}
      action={(post) => (organizing ? <CardTools board={board} post={post} onError={onError} /> : <CardSaveButton post={post} />)}
      empty={<EmptyState message={BOARD_COPY.empty} action={{ to: paths.home, label: COPY.feed.explore }} />}
      header={
        <>
          {organizing && (
            <div className={styles.organize}>
              <p>{board.role === 'owner' ? BOARD_COPY.organizeHint : BOARD_COPY.organizeHintCollaborator}</p>
              {board.role === 'owner' && board.coverPostId !== null && (
                <button
                  type="button"
                  className={button.secondary}
                  disabled={update.isPending}
                  onClick={() => update.mutate({ coverPostId: null }, { onError })}
                >
                  {BOARD_COPY.useNewest}
                </button>
              )}
            </div>
          )}
          <FormErrors messages={problems} testId="organize-errors" />
        </>
      }
    />
  );
}

/**
 * /@{username}/boards/{slug}: the board's name, description, owner, count and collaborators, its
 * posts newest saved first, and what the viewer's role lets them do. A board that is not there
 * for this viewer (missing, secret, someone hidden) is the not-found page, as the API's 404.
 */
export function BoardPage({ username }: { username: string }) {
  const { slug = '' } = useParams();
  const board = useQuery(boardQueries.board(username.toLowerCase(), slug));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [organizing, setOrganizing] = useState(false);
  useDocumentTitle(board.data?.name ?? 'Board');

  if (board.isPending) {
    return (
      <Page back>
        <Skeleton label="Loading board">
          <SkeletonProfileHeader />
          <SkeletonCards />
        </Skeleton>
      </Page>
    );
  }
  if (board.isError) {
    if (board.error instanceof ApiError && board.error.status === 404) return <NotFoundPage />;
    return (
      <Page back>
        <Notice title={COPY.errorTitle} message={BOARD_COPY.loadFailed} />
      </Page>
    );
  }

  const data = board.data;
  const close = () => setDialog(null);
  return (
    <Page back>
      <header className={styles.header}>
        <h1 className={styles.title}>{data.name}</h1>
        {data.description && <p className={styles.description}>{data.description}</p>}
        <div className={styles.facts}>
          <Link to={paths.profile(data.owner.username)} className={styles.owner}>
            <Avatar src={data.owner.icon} username={data.owner.username} size={28} />
            <span>@{data.owner.username}</span>
          </Link>
          <Members board={data} />
          <span>{BOARD_COPY.count(data.count)}</span>
          {data.secret && <SecretMark label={BOARD_COPY.secretBadge} />}
        </div>
        <Actions board={data} organizing={organizing} onOrganize={setOrganizing} onDialog={setDialog} />
      </header>
      <BoardPosts board={data} organizing={organizing && (data.role === 'owner' || data.role === 'collaborator')} />
      {dialog === 'edit' && <EditBoardDialog board={data} onClose={close} />}
      {dialog === 'delete' && <DeleteBoardDialog board={data} onClose={close} />}
      {dialog === 'invite' && <InviteDialog board={data} onClose={close} />}
    </Page>
  );
}
