import { useNavigate } from '../../../lib/router';
import type { BoardDetail } from '../../../../shared/api/boards';
import * as COPY from '../../../../shared/copy';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { errorMessage } from '../../../lib/rejected';
import { paths } from '../../../paths';
import { PopUp } from '../../../ui/PopUp';
import { useDeleteBoard } from '../api/delete-board';

/**
 * Delete board, in the spec's confirmation style (like deleting a post): Delete and Cancel,
 * Cancel focused; then a loader, then the owner's Boards tab. A failure says why.
 */
export function DeleteBoardDialog({ board, onClose }: { board: BoardDetail; onClose: () => void }) {
  const navigate = useNavigate();
  const remove = useDeleteBoard(board.id);

  // Deleted: still 'deleting' for the moment until the Boards tab replaces this page.
  if (remove.isPending || remove.isSuccess) return <PopUp title={BOARD_COPY.deleting} loading />;
  if (remove.isError) {
    return (
      <PopUp
        title={COPY.errorTitle}
        message={errorMessage(remove.error)}
        buttons={[{ label: COPY.close, onClick: onClose }]}
        onCancel={onClose}
      />
    );
  }
  return (
    <PopUp
      title={BOARD_COPY.deleteTitle}
      message={BOARD_COPY.deleteMessage(board.name)}
      onCancel={onClose}
      buttons={[
        {
          label: BOARD_COPY.delete,
          variant: 'danger',
          onClick: () =>
            remove.mutate(undefined, { onSuccess: () => void navigate(paths.boards(board.owner.username), { replace: true }) }),
        },
        { label: COPY.cancel, onClick: onClose },
      ]}
    />
  );
}
