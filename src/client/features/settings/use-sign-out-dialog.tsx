import { useState } from 'react';
import { useNavigate } from '../../lib/router';
import * as COPY from '../../../shared/copy';
import { APP_NAME } from '../../app-name';
import { paths } from '../../paths';
import { PopUp } from '../../ui/PopUp';
import { useSignOut } from '../auth';

export type SignOutKind = 'sign-out' | 'everywhere';

/**
 * Signing out after a confirmation (spec section: Settings), of this browser or of every
 * session: Settings and the Sessions page ask the same way. `ask(kind)` opens the dialog, which
 * the page renders where it likes; confirming goes to /login, a failure to the 404 screen.
 * The mutations live with the page, not the dialog: the dialog closes before they finish.
 */
export function useSignOutDialog() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const signOutEverywhere = useSignOut({ everywhere: true });
  const [asking, ask] = useState<SignOutKind | null>(null);
  const cancel = () => ask(null);

  const confirm = () => {
    const mutation = asking === 'everywhere' ? signOutEverywhere : signOut;
    ask(null);
    mutation.mutate(undefined, {
      onSuccess: () => void navigate(paths.login, { replace: true }),
      onError: () => void navigate(paths.notFound(COPY.settings.signOutFailed)),
    });
  };

  const everywhere = asking === 'everywhere';
  const dialog = asking && (
    <PopUp
      title={everywhere ? COPY.settings.signOutEverywhereTitle : COPY.settings.signOutTitle}
      message={everywhere ? COPY.settings.signOutEverywhereMessage : COPY.settings.signOutMessage(APP_NAME)}
      buttons={[
        { label: everywhere ? COPY.settings.signOutEverywhere : COPY.settings.signOut, onClick: confirm, variant: 'danger' },
        { label: COPY.cancel, onClick: cancel, variant: 'secondary' },
      ]}
      onCancel={cancel}
    />
  );
  return { ask, dialog };
}
