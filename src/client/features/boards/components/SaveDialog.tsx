import { createPortal } from 'react-dom';
import { useCurrentUser } from '../../../api/current-user';
import { SignInPrompt } from '../../../ui/SignInPrompt';
import { SavePicker } from './SavePicker';

/**
 * What Save opens: the picker for a signed-in viewer, the spec's 'Not signed in!' otherwise. In
 * a portal: a grid card's Save hides when the pointer leaves the card, and a dialog inside it
 * would hide with it.
 */
export function SaveDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const me = useCurrentUser();
  return createPortal(me ? <SavePicker postId={postId} onClose={onClose} /> : <SignInPrompt onClose={onClose} />, document.body);
}
