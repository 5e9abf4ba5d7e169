import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { ApiError } from '../../api/http';
import { errorMessage, errorMessages } from '../../lib/rejected';
import { Link, useNavigate, useParams } from '../../lib/router';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { FormErrors } from '../../ui/FormErrors';
import { PopUp } from '../../ui/PopUp';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useClaimCheck, useClaimUsername } from './api/username-claim';
import { AuthScreen } from './AuthScreen';
import { ProblemCard } from './ProblemCard';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

const isDeadLink = (error: unknown) => error instanceof ApiError && error.code === 'CLAIM_LINK_INVALID';

/**
 * Not in the spec (issue 29): the mailed link (/claim/{token}) that gives a deleted account's held
 * name back to whoever proved its address. The link is checked first and says which name and
 * address; the account is made only when **Create Account** is pressed (a mail scanner that
 * opens links makes nothing), then this browser is signed in and goes home.
 */
export function ClaimUsernamePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const link = useClaimCheck(token);
  const claim = useClaimUsername();
  useDocumentTitle(COPY.claim.title);

  if (link.isPending) {
    return (
      <AuthScreen>
        <Spinner label={COPY.claim.checking} showLabel />
      </AuthScreen>
    );
  }
  const dead = isDeadLink(claim.error) || isDeadLink(link.error);
  if (dead || link.isError) {
    return (
      <AuthScreen>
        <ProblemCard id="claim-title" title={COPY.claim.invalidTitle} message={dead ? ERRORS.CLAIM_LINK_INVALID : errorMessage(link.error)}>
          <Link to={paths.login} className={button.primary}>
            {COPY.claim.toSignIn}
          </Link>
        </ProblemCard>
      </AuthScreen>
    );
  }

  const { username, email } = link.data;
  return (
    <AuthScreen>
      <section className={styles.card} aria-labelledby="claim-title">
        <h2 id="claim-title" className={recovery.title}>
          {COPY.claim.title}
        </h2>
        <p className={recovery.intro}>{COPY.claim.intro(username, email)}</p>
        <button
          type="button"
          className={button.primary}
          disabled={claim.isPending}
          onClick={() => claim.mutate(token, { onSuccess: () => void navigate(paths.home, { replace: true }) })}
        >
          {COPY.claim.submit}
        </button>
        <FormErrors messages={claim.isError ? errorMessages(claim.error) : []} testId="claim-errors" />
      </section>
      {claim.isPending && <PopUp title={COPY.claim.creatingTitle} message={COPY.claim.creatingMessage} loading />}
    </AuthScreen>
  );
}
