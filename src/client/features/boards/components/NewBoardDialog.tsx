import { useId } from 'react';
import { useNavigate } from '../../../lib/router';
import * as COPY from '../../../../shared/copy';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { normalizeBoardName } from '../../../../shared/validation/board';
import { paths } from '../../../paths';
import { FormErrors } from '../../../ui/FormErrors';
import { PopUp } from '../../../ui/PopUp';
import { useCreateBoard } from '../api/create-board';
import { BoardFields } from './BoardFields';
import { useBoardDraft } from './use-board-draft';

/** New board from the Boards tab: name, description, Secret; then the new board's page. */
export function NewBoardDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const createBoard = useCreateBoard();
  const form = useBoardDraft();
  const { draft } = form;

  const create = () => {
    if (!form.submit()) return;
    createBoard.mutate(
      { name: normalizeBoardName(draft.name), description: draft.description.trim(), secret: draft.secret },
      {
        onSuccess: (board) => void navigate(paths.board(board.owner.username, board.slug)),
        onError: form.failed,
      },
    );
  };

  return (
    <PopUp
      title={BOARD_COPY.newBoard}
      loading={createBoard.isPending}
      onCancel={onClose}
      buttons={[
        { label: BOARD_COPY.createOnly, onClick: create, variant: 'primary' },
        { label: COPY.cancel, onClick: onClose },
      ]}
    >
      <BoardFields id={id} draft={draft} onChange={form.onChange} />
      <FormErrors messages={form.problems} testId="new-board-errors" />
    </PopUp>
  );
}
