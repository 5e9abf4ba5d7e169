import type { SSO_AGAIN_PAGES } from '../../../shared/api/sso';
import * as COPY from '../../../shared/copy';
import { ERRORS } from '../../../shared/errors';
import { urlOf } from '../../api/http';
import { SSO_NAME } from '../../server-meta';
import button from '../../ui/button.module.css';

/**
 * Not in the spec (issue 29): an account without a password proves it is its owner by having
 * signed in through the university's account within 10 minutes. When the server asks for that,
 * this sends the browser to the provider and back to `page`.
 */
export function SignInAgain({ errors, page }: { errors: string[]; page: (typeof SSO_AGAIN_PAGES)[number] }) {
  if (!SSO_NAME || !errors.includes(ERRORS.SSO_REAUTH_NEEDED)) return null;
  return (
    <a href={urlOf('ssoStart', undefined, { again: page })} className={button.secondary}>
      {COPY.sso.signInAgain(SSO_NAME)}
    </a>
  );
}
