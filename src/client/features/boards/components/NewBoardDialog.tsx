import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { COPY } from '../../../../shared/copy';
import { BOARD_COPY } from '../../../../shared/boards-copy';
import { normalizeBoardName } from '../../../../shared/validation/board';
import { errorMessages } from '../../../lib/rejected';
import { paths } from '../../../paths';
import { FormErrors } from '../../../ui/FormErrors';
import { PopUp } from '../../../ui/PopUp';
import { useCreateBoard } from '../api/create-board';
import { BoardFields, boardDraftProblems, type BoardDraft } from './BoardFields';

/** New board from the Boards tab: name, description, Secret; then the new board's page. */
export function NewBoardDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const createBoard = useCreateBoard();
  const [draft, setDraft] = useState<BoardDraft>({ name: '', description: '', secret: false });
  const [submitted, setSubmitted] = useState(false);
  const [serverProblems, setServerProblems] = useState<string[]>([]);

  const create = () => {
    setSubmitted(true);
    if (boardDraftProblems(draft, true).length > 0) return;
    createBoard.mutate(
      { name: normalizeBoardName(draft.name), description: draft.description.trim(), secret: draft.secret },
      {
        onSuccess: (board) => void navigate(paths.board(board.owner.username, board.slug)),
        onError: (error) => setServerProblems(errorMessages(error)),
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
      <BoardFields
        id={id}
        draft={draft}
        onChange={(next) => {
          setDraft(next);
          setServerProblems([]);
        }}
      />
      <FormErrors messages={[...boardDraftProblems(draft, submitted), ...serverProblems]} testId="new-board-errors" />
    </PopUp>
  );
}
