import { useNavigate } from '../lib/router';
import * as COPY from '../../shared/copy';
import { paths } from '../paths';
import { PopUp } from './PopUp';

/** "Not signed in!": shown when a signed-out visitor reaches for something that needs an account. */
export function SignInPrompt({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <PopUp
      title={COPY.notSignedIn.title}
      message={COPY.notSignedIn.message}
      buttons={[
        { label: COPY.notSignedIn.signIn, onClick: () => void navigate(paths.login) },
        { label: COPY.close, onClick: onClose },
      ]}
      onCancel={onClose}
    />
  );
}
