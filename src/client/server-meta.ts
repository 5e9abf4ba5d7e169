import { isRegistrationMode, type RegistrationSettings } from '../shared/registration';

/** What the server wrote into index.html (server/http/client-app.ts), read once. */
export function serverMeta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
}

/** The server sends mail (SMTP_URL): the sign-in screen offers "Forgot password?". */
export const FORGOT_PASSWORD_OFFERED = serverMeta('forgot-password') === 'on';

/**
 * Who may sign up (REGISTRATION): the create-account form shows the Invite code field, or says
 * up front which addresses may join. Open when the page says nothing (a dev server's page).
 */
export const REGISTRATION: RegistrationSettings = (() => {
  const mode = serverMeta('registration') ?? '';
  const domains = serverMeta('registration-email-domains') ?? '';
  return {
    mode: isRegistrationMode(mode) ? mode : 'open',
    emailDomains: domains.split(',').filter((domain) => domain !== ''),
  };
})();

/**
 * Single sign-on's name (OIDC_NAME) when the server has it set up: the sign-in screen offers
 * **Continue with {name}** and Settings a way to connect it (issue 29). Absent on a dev server's page.
 */
export const SSO_NAME: string | undefined = (() => {
  const name = serverMeta('sso') ?? '';
  return name === '' || name === '__SSO__' ? undefined : name;
})();

/** SSO_ONLY: the sign-in screen shows Continue with {OIDC_NAME}, the password form behind a link for admins. */
export const SSO_ONLY = SSO_NAME !== undefined && serverMeta('sso-only') === 'on';
