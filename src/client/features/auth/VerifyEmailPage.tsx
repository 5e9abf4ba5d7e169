import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { ApiError } from '../../api/http';
import { useCurrentUser } from '../../api/current-user';
import { errorMessage } from '../../lib/rejected';
import { Link, useParams } from '../../lib/router';
import { paths } from '../../paths';
import button from '../../ui/button.module.css';
import { Spinner } from '../../ui/Spinner';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useAddressToVerify, useVerifyLink, VerifyEmailPanel } from '../verify-email';
import { AuthScreen } from './AuthScreen';
import styles from './LoginPage.module.css';
import recovery from './PasswordRecovery.module.css';

/**
 * Not in the spec (issue 29): a mailed verification link (/verify/{token}), opened anywhere,
 * signed in or not. It proves its address once; then the way on is Home (or Sign In).
 */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const me = useCurrentUser();
  const verifyFirst = useAddressToVerify();
  const link = useVerifyLink(token);
  useDocumentTitle(link.isSuccess ? COPY.verify.verifiedTitle : COPY.verify.checkingTitle);
  const onward = me ? (
    <Link to={paths.home} className={button.primary}>
      {COPY.verify.toHome}
    </Link>
  ) : (
    <Link to={paths.login} className={button.primary}>
      {COPY.verify.toSignIn}
    </Link>
  );

  if (link.isPending) {
    return (
      <AuthScreen>
        <Spinner label={COPY.verify.checkingTitle} showLabel />
      </AuthScreen>
    );
  }
  const dead = link.error instanceof ApiError && link.error.code === 'VERIFY_LINK_INVALID';
  return (
    <AuthScreen>
      <section className={styles.card} aria-labelledby="verify-title">
        <h2 id="verify-title" className={recovery.title}>
          {link.isSuccess ? COPY.verify.verifiedTitle : COPY.verify.invalidTitle}
        </h2>
        {link.isSuccess ? (
          <p className={recovery.intro}>{COPY.verify.verified(link.data.email)}</p>
        ) : (
          <p className={recovery.problem} role="alert">
            {dead ? ERRORS.VERIFY_LINK_INVALID : errorMessage(link.error)}
          </p>
        )}
        {/* A dead link, on the device that must verify: a new mail is a tap away. */}
        {dead && verifyFirst && <VerifyEmailPanel email={verifyFirst} />}
        {onward}
      </section>
    </AuthScreen>
  );
}
