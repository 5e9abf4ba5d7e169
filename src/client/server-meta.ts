/** What the server wrote into index.html (server/http/client-app.ts), read once. */
export function serverMeta(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
}

/** The server sends mail (SMTP_URL): the sign-in screen offers "Forgot password?". */
export const FORGOT_PASSWORD_OFFERED = serverMeta('forgot-password') === 'on';
