import { createPortal } from 'react-dom';
import { useCurrentUser } from '../../../api/current-user';
import { SignInPrompt } from '../../../ui/SignInPrompt';
import { SavePicker } from './SavePicker';
import { useAddressToVerify, VerifyPrompt } from '../../verify-email';

/**
 * What Save opens: the picker for a signed-in viewer, the spec's 'Not signed in!' otherwise, and
 * for an account that must verify its address first, that (issue 29). In
 * a portal: a grid card's Save hides when the pointer leaves the card, and a dialog inside it
 * would hide with it.
 */
export function SaveDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const me = useCurrentUser();
  const verifyFirst = useAddressToVerify();
  const dialog = !me ? (
    <SignInPrompt onClose={onClose} />
  ) : verifyFirst ? (
    <VerifyPrompt email={verifyFirst} onClose={onClose} />
  ) : (
    <SavePicker postId={postId} onClose={onClose} />
  );
  return createPortal(dialog, document.body);
}
