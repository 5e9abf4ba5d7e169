import * as COPY from '../../../shared/copy';
import { urlOf } from '../../api/http';
import button from '../../ui/button.module.css';
import styles from './LoginPage.module.css';

/**
 * Not in the spec (issue 29): **Continue with {OIDC_NAME}**, above the spec's form when single
 * sign-on is set up. A plain link: the server sends the browser on to the provider.
 */
export function SsoButton({ name }: { name: string }) {
  return (
    <>
      <a href={urlOf('ssoStart')} className={button.primary}>
        {COPY.sso.continueWith(name)}
      </a>
      <p className={styles.or} aria-hidden="true">
        {COPY.sso.or}
      </p>
    </>
  );
}
