import { useId, useState } from 'react';
import type { ReportBody } from '../../../shared/api/moderation';
import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { REPORT_DETAILS_MAX_LENGTH, REPORT_REASONS, type ReportReason } from '../../../shared/moderation';
import { useCurrentUser } from '../../api/current-user';
import { errorMessages } from '../../lib/rejected';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { useReport } from './api/moderation';
import { Choices, TextArea } from './dialog-fields';
import styles from './ReportDialog.module.css';
import { useAddressToVerify, VerifyPrompt } from '../verify-email';

type Target = { postId: string } | { username: string };

/**
 * The Report action (issue 17) on someone else's post or profile: a dialog with the reasons,
 * the words 'Something else' requires, then the thanks. Not shown signed out, nor on your own.
 * Without an owner it is on a not-found page: a post or profile hidden by a block can still be
 * reported by its link (issue 26), and the dialog shows nothing of it.
 */
export function ReportButton({ target, owner }: { target: Target; owner?: string }) {
  const me = useCurrentUser();
  const verifyFirst = useAddressToVerify();
  const [open, setOpen] = useState(false);
  if (!me || me.username === owner) return null;
  const close = () => setOpen(false);
  return (
    <>
      <button
        type="button"
        className={`${button.ghost} ${owner === undefined ? styles.triggerUnder : styles.trigger}`}
        onClick={() => setOpen(true)}
      >
        {COPY.report.action}
      </button>
      {/* Issue 29: an account that must verify its address reports once it has. */}
      {open && (verifyFirst ? <VerifyPrompt email={verifyFirst} onClose={close} /> : <ReportDialog target={target} onClose={close} />)}
    </>
  );
}

function ReportDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const report = useReport();
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const title = 'postId' in target ? COPY.report.postTitle : COPY.report.profileTitle(target.username);

  if (report.isSuccess) {
    return (
      <PopUp
        title={COPY.report.thanksTitle}
        message={COPY.report.thanksMessage}
        buttons={[{ label: COPY.close, onClick: onClose }]}
        onCancel={onClose}
      />
    );
  }

  const sendReport = () => {
    const found: string[] = [];
    if (!reason) found.push(COPY.report.why);
    else if (reason === 'other' && details.trim() === '') found.push(ERRORS.REPORT_DETAILS_REQUIRED);
    if (Array.from(details).length > REPORT_DETAILS_MAX_LENGTH) found.push(ERRORS.REPORT_DETAILS_TOO_LONG);
    setProblems(found);
    if (found.length > 0 || !reason) return;
    const body: ReportBody = { ...target, reason, ...(reason === 'other' && { details: details.trim() }) };
    report.mutate(body, { onError: (error) => setProblems(errorMessages(error)) });
  };

  return (
    <PopUp
      title={title}
      loading={report.isPending}
      onCancel={onClose}
      buttons={[
        { label: COPY.report.send, onClick: sendReport, variant: 'danger' },
        { label: COPY.cancel, onClick: onClose },
      ]}
    >
      <div className={styles.form}>
        <Choices
          legend={COPY.report.why}
          name={`${id}-reason`}
          options={(Object.entries(REPORT_REASONS) as Array<[ReportReason, string]>).map(([value, label]) => ({ value, label }))}
          value={reason}
          onChange={setReason}
        />
        {reason === 'other' && (
          <TextArea
            id={`${id}-details`}
            label={COPY.report.details}
            value={details}
            onChange={setDetails}
            maxLength={REPORT_DETAILS_MAX_LENGTH}
            rows={3}
            required
            hint={COPY.report.detailsHint(REPORT_DETAILS_MAX_LENGTH)}
          />
        )}
        <FormErrors messages={problems} testId="report-errors" />
      </div>
    </PopUp>
  );
}
