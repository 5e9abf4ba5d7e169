/**
 * The concerns docs/configuration.md sorts the settings into, in the order an operator meets
 * them: one `##` section each, with the sentence under its heading. Every setting names one
 * (settings.ts); a setting without one does not compile.
 */
export const SETTING_GROUPS = {
  server: {
    title: 'Server and network',
    about: 'Where the server listens, the address users reach it at, the proxy in front of it, logs, metrics and connection timeouts.',
  },
  accounts: {
    title: 'Accounts and sign-up',
    about: 'Who may create an account, and what the server keeps to protect account names.',
  },
  mail: {
    title: 'Mail',
    about:
      'Without mail the app works; **Forgot password?** is missing (`npm run admin -- reset-link` replaces it) and addresses are not verified.',
  },
  sso: {
    title: 'Single sign-on (OpenID Connect)',
    about:
      "Students sign in with the university's account: set the four `OIDC_*` below (and `PUBLIC_URL`); register " +
      '`PUBLIC_URL/api/auth/sso/callback` as the redirect URI at the provider (docs/deploy.md).',
  },
  notifications: {
    title: 'Notifications and push',
    about:
      'Notifications are rows in the database, kept this long; pushes are signed with a VAPID key pair, made at the first ' +
      'start and kept in the database unless given here (processes sharing PostgreSQL then share it).',
  },
  database: {
    title: 'Database',
    about: 'The embedded database (PGlite, under `DATA_DIR`) by default; PostgreSQL with `DATABASE_URL`.',
  },
  storage: {
    title: 'Image storage',
    about: 'Images go to `DATA_DIR/media` by default; to an S3-compatible bucket with `S3_BUCKET`.',
  },
  processes: {
    title: 'Several processes: Redis and caches',
    about: 'What processes share: rate-limit counters in Redis, and how long each process may reuse a shared read.',
  },
  limits: {
    title: 'Rate limits and reports',
    about: 'How much one address or one account may do; windows are fixed (15 minutes, an hour or a minute, as each row says).',
  },
  images: {
    title: 'Image processing',
    about: 'How many uploads one process decodes at once, and how many may wait.',
  },
  search: {
    title: 'Search',
    about: 'How many post searches one process runs at once, how many may wait, and for how long one may run.',
  },
  exports: {
    title: 'Download My Data',
    about: 'How many ZIPs one process writes at once, and when an idle download is cut off.',
  },
} as const satisfies Record<string, { title: string; about: string }>;

export type SettingGroup = keyof typeof SETTING_GROUPS;
