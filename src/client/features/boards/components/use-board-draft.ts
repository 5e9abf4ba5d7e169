import { useState } from 'react';
import { errorMessages } from '../../../lib/rejected';
import { boardDraftProblems, type BoardDraft } from './BoardFields';

const EMPTY: BoardDraft = { name: '', description: '', secret: false };

/**
 * The state every board form keeps: the draft, whether it was submitted (the empty-name message
 * waits until then), and what the server said. One home for the three forms (New board in the
 * picker and on the Boards tab, Edit), so they check and report alike.
 */
export function useBoardDraft(initial: BoardDraft = EMPTY) {
  const [draft, setDraft] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [serverProblems, setServerProblems] = useState<string[]>([]);
  return {
    draft,
    /** For BoardFields: an edit clears what the server said about the last try. */
    onChange: (next: BoardDraft) => {
      setDraft(next);
      setServerProblems([]);
    },
    /** What FormErrors shows. */
    problems: [...boardDraftProblems(draft, submitted), ...serverProblems],
    /** Marks the form submitted; whether the draft passes the shared rules and may be sent. */
    submit: () => {
      setSubmitted(true);
      setServerProblems([]);
      return boardDraftProblems(draft, true).length === 0;
    },
    /** The server refused: its messages join the form's. */
    failed: (error: unknown) => setServerProblems(errorMessages(error)),
  };
}
