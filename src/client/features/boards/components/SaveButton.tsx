import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as COPY from '../../../../shared/copy';
import { useCurrentUser } from '../../../api/current-user';
import button from '../../../ui/button.module.css';
import { boardQueries } from '../api/queries';
import styles from './SaveButton.module.css';
import { SaveDialog } from './SaveDialog';

/**
 * The post page's Save: 'Save', or 'Saved · {board}' once the post is on one of your boards (the
 * one you saved it to last). Every signed-in viewer has it, the author too.
 */
/** `load`: whether to ask for the boards now (a page may ask for its first view's parts first). */
export function SaveButton({ postId, load = true }: { postId: string; load?: boolean }) {
  const me = useCurrentUser();
  const targets = useQuery({ ...boardQueries.saveTargets(postId), enabled: Boolean(me) && load });
  const [open, setOpen] = useState(false);
  const savedOn = me ? targets.data?.find((board) => board.hasPost) : undefined;
  return (
    <>
      <button
        type="button"
        className={savedOn ? `${button.secondary} ${styles.saved}` : `${button.primary} ${styles.save}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <span className={styles.label}>{savedOn ? COPY.boards.saved(savedOn.name) : COPY.boards.save}</span>
      </button>
      {open && <SaveDialog postId={postId} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * A grid card's Save (the card slot of PostGrid): on a desktop it appears while the pointer is
 * over the card or the keyboard is on it; a phone saves from the post page (see the CSS).
 */
export function CardSaveButton({ post }: { post: { id: string; description: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`${button.primary} ${styles.card}`}
        aria-haspopup="dialog"
        aria-label={COPY.boards.saveLabel(post.description)}
        onClick={() => setOpen(true)}
      >
        {COPY.boards.save}
      </button>
      {open && <SaveDialog postId={post.id} onClose={() => setOpen(false)} />}
    </>
  );
}
