// The architecture, checked on every `npm run lint` (README, "How the code is laid out").
//
// - client → shared ← server: shared is pure; client and server never import each other.
// - client/ui is the kit every feature builds on, so it imports no feature; a feature imports
//   another only through that feature's index.ts.
// - Server areas are layered, lowest first. An area imports only areas below it, so areas can
//   never import each other in circles (a file-level cycle check alone would miss
//   auth/a → users/b → auth/c).

/** Lowest first. Infrastructure, then the areas of the product, then what assembles them. */
const SERVER_LAYERS = [
  'ids',
  'clock',
  // Prometheus metrics (issue 28): a registry, and the observers other areas are given; imports no area.
  'metrics',
  'cache',
  'concurrency-gate',
  'periodic-task',
  // The server's own secret, for keyed hashes (issue 26).
  'server-secret',
  'db',
  // Look-alike keys of names (UTS #39 skeletons) and their filling-in for older rows (issue 26).
  'lookalikes',
  'http',
  'images',
  // Reads every area's settings (their types live with the area they configure).
  'config',
  // Sends mail (password reset links) when SMTP_URL is set.
  'mail',
  'storage',
  // /healthz, /readyz and the draining shutdown (issue 28): look at the database, storage and Redis.
  'health',
  // Reads every area shares: public user rows, icons, who follows whom.
  'directory',
  'auth',
  // Single sign-on with the university's OpenID provider (issue 29): makes and signs in accounts.
  'sso',
  'posts',
  // Notifications and Web Push (issue 30): told by follows, boards and moderation in their writes.
  'notifications',
  'follows',
  'users',
  'search',
  // Boards of saved posts (issue 18): read posts and users through the visibility rule.
  'boards',
  // What a user does with their whole account: export it, delete it (issue 16).
  'accounts',
  // Reports, the moderation queue and log, roles, suspensions (issue 17): acts on posts and users.
  'moderation',
  'backup',
  // `npm run admin` commands, run by the CLI or, for the embedded database, by the running server.
  'admin',
  'tools',
];

/** src/server/<name>/… or src/server/<name>.ts */
const serverArea = (names) => `^src/server/(${names.join('|')})(/|\\.ts$)`;

const layerRules = SERVER_LAYERS.slice(0, -1).map((area, index) => ({
  name: `server-layer-${area}`,
  comment: `${area} is below ${SERVER_LAYERS.slice(index + 1).join(', ')}: it may not import them.`,
  severity: 'error',
  from: { path: serverArea([area]) },
  to: { path: serverArea(SERVER_LAYERS.slice(index + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other in a circle.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-is-pure',
      comment: 'src/shared is used by both sides, so it imports neither.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(client|server)/' },
    },
    {
      name: 'client-not-server',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-not-client',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/client/' },
    },
    {
      name: 'ui-imports-no-feature',
      comment: 'ui/ is what features are built from; a feature-specific piece belongs in its feature.',
      severity: 'error',
      from: { path: '^src/client/ui/' },
      to: { path: '^src/client/features/' },
    },
    {
      name: 'feature-public-entry',
      comment: "A feature imports another feature only through that feature's index.ts.",
      severity: 'error',
      from: { path: '^src/client/features/([^/]+)/' },
      to: {
        path: '^src/client/features/[^/]+/',
        pathNot: ['^src/client/features/$1/', '^src/client/features/[^/]+/index\\.ts$'],
      },
    },
    ...layerRules,
    {
      name: 'server-area-listed',
      comment: 'Every server module belongs to a layer (SERVER_LAYERS) or assembles them (app.ts, main.ts).',
      severity: 'error',
      from: { path: '^src/server/', pathNot: [serverArea(SERVER_LAYERS), '^src/server/(app|main)\\.ts$'] },
      to: {},
    },
    {
      name: 'account-row-for-account-modules',
      comment:
        "The signed-in account's whole row (password hash, e-mail) is for the modules that read and write accounts; every other handler and service gets the Viewer (issue 27).",
      severity: 'error',
      from: { path: '^src/server/', pathNot: '^src/server/(auth|sso|accounts|users)/' },
      to: { path: '^src/server/auth/session-account\\.ts$' },
    },
    {
      name: 'not-to-tests',
      comment: 'Product code never depends on tests or benchmarks.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(tests|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|tests|bench)/',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
    moduleSystems: ['es6'],
  },
};
