import { ERRORS, isErrorCode } from '../../shared/errors';

/**
 * The words of a refused single sign-on (issue 29): the server sends the browser back to the
 * sign-in screen or Settings with `?sso=<code>`. Only the catalogue's own texts are shown, never
 * anything else the URL says.
 */
export function ssoRefusal(): string[] {
  const code = new URLSearchParams(window.location.search).get('sso');
  return isErrorCode(code) && code !== 'GENERIC' ? [ERRORS[code]] : [];
}
