import { useNavigate } from '../lib/router';
import * as COPY from '../../shared/copy';
import { paths } from '../paths';
import { PopUp } from './PopUp';

/** A form's failed submission: the error, Home, and a way back to the form as it was. */
export function FailedPopUp({ message, backLabel, onBack }: { message: string; backLabel: string; onBack: () => void }) {
  const navigate = useNavigate();
  return (
    <PopUp
      title={COPY.errorTitle}
      message={message}
      buttons={[
        { label: COPY.home, onClick: () => void navigate(paths.home) },
        { label: backLabel, onClick: onBack, variant: 'secondary' },
      ]}
      onCancel={onBack}
    />
  );
}
