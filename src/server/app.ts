import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AccountDeletion } from './accounts/delete-account.js';
import { deleteAccountRoutes } from './accounts/delete-account.routes.js';
import { exportRoutes } from './accounts/export.routes.js';
import { DataExport } from './accounts/export.service.js';
import { accountSecurityRoutes } from './auth/account-security.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { Invites } from './auth/invites.js';
import { inviteRoutes } from './auth/invites.routes.js';
import { PasswordResetService } from './auth/password-reset.service.js';
import { passwordResetRoutes } from './auth/password-reset.routes.js';
import { adminRoutes } from './admin/admin.routes.js';
import { backupRoutes } from './backup/backup.routes.js';
import { AuthService } from './auth/auth.service.js';
import { registerAccess } from './auth/access.js';
import { SessionCache } from './auth/session-cache.js';
import { StoredEmails } from './auth/stored-emails.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { registerClientApp } from './http/client-app.js';
import { UNSHARED_ROUTES } from './http/unshared-routes.js';
import { serializeRequest } from './http/secret-urls.js';
import { Mailer } from './mail/mailer.js';
import { moderationRoutes } from './moderation/moderation.routes.js';
import { ModerationService } from './moderation/moderation.service.js';
import { Roles } from './moderation/roles.js';
import { Outbox } from './mail/outbox.js';
import { handleFrameworkError, registerErrorHandler } from './http/error-handler.js';
import { registerPeriodicTask } from './periodic-task.js';
import { loadServerSecret } from './server-secret.js';
import type { VerificationPolicy } from './auth/email-verification-rule.js';
import { emailVerificationRoutes } from './auth/email-verification.routes.js';
import { EmailVerificationService } from './auth/email-verification.service.js';
import { usernameClaimRoutes } from './auth/username-claim.routes.js';
import { UsernameClaims } from './auth/username-claim.service.js';
import { EmailVerifiedByAdmin } from './moderation/email-verified-by-admin.js';
import { ssoRoutes } from './sso/sso.routes.js';
import { SsoService } from './sso/sso.service.js';
import { fillLookalikeKeys } from './lookalikes/fill-keys.js';
import { registerEmbeddedMaintenance } from './db/embedded-maintenance.js';
import { MemoryCounterStore, RateLimiter, type CounterStore } from './http/rate-limiter.js';
import { RedisCounterStore } from './http/redis-counter-store.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerSameOrigin } from './http/same-origin.js';
import { registerStrictInput } from './http/strict-input.js';
import { canonicalUrl, registerApiNoStore } from './http/url-space.js';
import { ImageQueue } from './images/image-queue.js';
import { Draining } from './health/draining.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { ReadinessChecks } from './health/readiness.js';
import { Metrics } from './metrics/metrics.js';
import { registerMetricsRoute, registerRequestMetrics } from './metrics/metrics-endpoint.js';
import { followRoutes } from './follows/follow.routes.js';
import { Changes } from './cache/changes.js';
import { ReadCache } from './cache/read-cache.js';
import { PostgresChangeFeed, registerReadYourWrites } from './db/change-feed.js';
import { ChangeNotices } from './db/change-notices.js';
import { UserDirectory } from './directory/user-directory.js';
import { Visibility } from './directory/visibility.js';
import { blockRoutes } from './follows/block.routes.js';
import { BoardMemberService } from './boards/board-member.service.js';
import { boardRoutes } from './boards/board.routes.js';
import { BoardService } from './boards/board.service.js';
import { BlockService } from './follows/block.service.js';
import { FollowService } from './follows/follow.service.js';
import { postRoutes } from './posts/post.routes.js';
import { NewestPostTimes } from './posts/newest-post-times.js';
import { PostService } from './posts/post.service.js';
import { searchRoutes } from './search/search.routes.js';
import { SearchService } from './search/search.service.js';
import { createStorage } from './storage/create-storage.js';
import { S3Storage } from './storage/s3-storage.js';
import { mediaRoutes } from './storage/media.routes.js';
import { PausableDeletes } from './storage/pausable-deletes.js';
import type { Storage } from './storage/storage.js';
import { TrackedFiles } from './storage/tracked-files.js';
import { userRoutes } from './users/user.routes.js';
import { activityRoutes } from './notifications/activity.routes.js';
import { ActivityService } from './notifications/activity.service.js';
import { NotificationSettingsService } from './notifications/notification-settings.service.js';
import { Notifier } from './notifications/notifier.js';
import { loadVapidKeys } from './notifications/push-keys.js';
import { PushSender } from './notifications/push-sender.js';
import { UserService } from './users/user.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Where a change made outside a route (a test setting suspended_until) is reported, as a
     * service's transaction would (db/change-notices.ts): every cache hears of it.
     */
    changes: ChangeNotices;
    /** This app's metrics, when METRICS_TOKEN or METRICS_PORT is set (main.ts serves the port's). */
    metrics: Metrics | undefined;
    /** Sends queued pushes (tests wait for it, or run it after moving a retry's time). */
    pushSender: PushSender;
    /** Notifications as read and kept (tests run retention now, as its hourly task does). */
    activity: ActivityService;
  }
}

/**
 * The database a server runs on, as configured (PostgreSQL, or the embedded database in a thread
 * of its own), migrated: what main.ts and the bench's servers start with.
 */
export async function openServerDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    poolSize: config.databasePoolSize,
    prepare: config.databasePreparedStatements,
    ownThread: true,
  });
  await migrate(database);
  return database;
}

export interface AppDeps {
  config: Config;
  database: Database;
  counters?: CounterStore;
  storage?: Storage;
  /** Enables the loopback-only endpoints of `npm run backup` and `npm run admin` (embedded setup). */
  adminToken?: string;
  /** Where mail goes out (config.mail); tests pass their own to wait until it is idle. */
  outbox?: Outbox;
  /** Where log lines go instead of standard output (tests read the security log from it). */
  logStream?: { write(line: string): void };
  /** The image queue; by default one sized by config.images (tests pass their own to fill it). */
  images?: ImageQueue;
  /** The in-memory caches' time (*_CACHE_MS) and the export's stall time; tests move it on instead of sleeping. */
  clock?: Clock;
  /** The push sender's waits (tests shorten the retry's); the rest of its options come from the config. */
  pushRetryBaseMs?: number;
}

/** Redis when REDIS_URL is set, so limits hold across processes; else this process's memory. */
function createCounterStore(config: Config, log: FastifyBaseLogger): CounterStore {
  if (!config.redisUrl) return new MemoryCounterStore();
  // Requests that need a counter fail while Redis is away (a limit is never silently off).
  const lost = (error: Error) => log.error({ err: error }, 'Redis unreachable: rate-limited requests fail until it is back');
  return new RedisCounterStore(config.redisUrl, `${config.redisKeyPrefix}rl:`, lost);
}

/** Builds the whole app (plugins, then routes) without listening: tests call app.inject. */
export async function buildApp({
  config,
  database,
  counters,
  storage: givenStorage,
  adminToken,
  logStream,
  images: givenImages,
  clock = systemClock,
  outbox: givenOutbox,
  pushRetryBaseMs,
}: AppDeps): Promise<FastifyInstance> {
  const storage = givenStorage ?? createStorage(config);
  const app = Fastify({
    // Request lines with secrets in their URL redacted (http/secret-urls.ts).
    logger: { level: config.logLevel, serializers: { req: serializeRequest }, ...(logStream && { stream: logStream }) },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A slow client (a trickled upload, headers sent a byte at a time) is cut off with a 408
    // instead of holding a connection and the upload's memory for ever.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      headersTimeout: Math.min(config.timeouts.headersMs, config.timeouts.requestMs || Infinity),
      // Node looks for expired requests every 30 s by default, which would let a 30 s timeout
      // run to a minute.
      connectionsCheckingInterval: 1_000,
    },
    // Requests on connections already open when the shutdown began are served (with Connection:
    // close), /readyz's 503 among them, rather than refused with Fastify's own 503 (health/draining.ts).
    return503OnClosing: false,
    // Hooks and routes see one path space (http/url-space.ts).
    rewriteUrl: (request) => canonicalUrl(request.url ?? '/'),
    frameworkErrors: handleFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  // Made only when they are served: otherwise nothing is counted, and no monitor runs.
  const metrics = config.metricsToken || config.metricsPort !== undefined ? new Metrics() : undefined;
  app.decorate('metrics', metrics);
  if (metrics) {
    registerRequestMetrics(app, metrics);
    const stopTiming = database.onStatement(metrics.statement);
    app.addHook('onClose', async () => stopTiming());
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // First of the hooks, so every request is counted while it is in flight (shutdown waits for them).
  const draining = new Draining(app);
  app.decorate('draining', draining);

  await app.register(fastifyCookie);
  // JSON and HTML over 1 KB are gzipped (cheap and fast); built assets come precompressed and
  // images are already compressed, so neither is touched.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['gzip'] });
  // Per-route limits are set where a form is read (http/multipart-form.ts).
  await app.register(fastifyMultipart, { throwFileSizeLimit: true });
  registerSecurityHeaders(app);
  // After helmet, so a refused request still carries the security headers.
  registerSameOrigin(app, config.publicUrl);
  registerApiNoStore(app);
  registerStrictInput(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.appName} API`, version: '1.0.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'session' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  const counterStore = counters ?? createCounterStore(config, app.log);
  const limiter = new RateLimiter(counterStore, metrics?.limits);
  // The one cache of shared reads; services report what changed, the cache decides what is stale.
  const cache = new ReadCache({ maxBytes: config.cacheMaxBytes, ttlMs: config.cacheTtlMs, now: clock, observer: metrics?.cache });
  // Sound only where one process owns the database (embedded); see auth/session-cache.ts.
  const sessions = new SessionCache(cache, database.kind === 'pglite' ? config.sessionCacheMs : 0);
  const serverSecret = await loadServerSecret(config);
  const outbox = givenOutbox ?? (config.mail && new Outbox(new Mailer(config.mail)));
  // Mail with links back here: SMTP_URL and PUBLIC_URL both (config.ts refuses one without the other).
  const mail = outbox && config.publicUrl ? { outbox, publicUrl: config.publicUrl, appName: config.appName } : undefined;
  // Verified addresses (issue 29): with mail on, new accounts prove theirs before they post.
  const verification: VerificationPolicy = { mail: mail !== undefined, requireAll: config.requireVerifiedEmail };
  const auth = new AuthService(database.orm, limiter, config.rateLimits, sessions, config.passwordHashing, config.registration, {
    verify: verification.mail,
    passwordSignIn: config.sso?.only ? 'admins' : 'everyone',
  });
  // Default deny: who the viewer is, and whether they may call the route at all (auth/access.ts).
  registerAccess(app, auth, verification);

  // Deletions can be held while a backup copies files (see storage/pausable-deletes.ts).
  const files = new PausableDeletes(storage);
  // Services note what they change in the transaction of the write; every cache hears of it once
  // committed, and the other processes sharing PostgreSQL through the change feed.
  const changes = new Changes();
  const notices = new ChangeNotices(database.orm, changes);
  const tracked = new TrackedFiles(database.orm, files, app.log, notices);
  // Files that an upload or deletion cut short by a crash left behind (storage/tracked-files.ts)
  // are deleted before the server starts listening, then every ORPHAN_FILE_AGE_MS. The embedded
  // database has exactly one process, so at start-up nothing can be in flight and every pending
  // file is an orphan; processes sharing PostgreSQL leave young ones to the process that may
  // still be writing them.
  let orphanAgeMs = database.kind === 'pglite' ? 0 : config.orphanFileAgeMs;
  registerPeriodicTask(app, {
    name: 'orphaned-file sweep',
    everyMs: config.orphanFileAgeMs,
    atStart: true,
    task: async () => {
      const swept = await tracked.sweep(orphanAgeMs);
      orphanAgeMs = config.orphanFileAgeMs;
      if (swept > 0) app.log.info({ swept }, 'deleted orphaned files');
    },
  });
  if (database.kind === 'pglite') registerEmbeddedMaintenance(app, database, config.embeddedMaintenance);
  // Rows from before migration 14 get their look-alike keys before the server listens (and their
  // addresses the parser refuses are counted); the hourly runs catch those an older process wrote
  // during an upgrade.
  registerPeriodicTask(app, {
    name: 'look-alike keys',
    everyMs: 60 * 60 * 1000,
    atStart: true,
    task: async () => {
      const { filled, refusedEmails: count } = await fillLookalikeKeys(database.orm);
      if (filled > 0) app.log.info({ filled }, 'gave older accounts and boards their look-alike keys');
      if (count > 0) {
        app.log.warn(
          { count },
          `${count} stored e-mail address(es) are not valid and get no mail: list them with npm run admin -- invalid-emails`,
        );
      }
    },
  });
  changes.subscribe((change) => cache.changed(change));
  // Where a change made outside a route (a test setting suspended_until) is reported, as a service's transaction would.
  app.decorate('changes', notices);
  // Processes sharing PostgreSQL tell each other what changed (an embedded database has one).
  const feed =
    database.kind === 'postgres' && config.databaseUrl
      ? new PostgresChangeFeed({
          databaseUrl: config.databaseUrl,
          changes,
          notices,
          cache,
          log: app.log,
          connectTimeoutMs: config.databaseConnectTimeoutMs,
          observer: metrics?.changeFeed,
        })
      : undefined;
  if (feed) {
    await feed.start();
    app.addHook('onClose', () => feed.stop());
    registerReadYourWrites(app, feed);
  }
  // Related posts and post search both look among the newest posts first: one set of window starts.
  const newestPostTimes = new NewestPostTimes(database.orm, cache);
  // The one visibility rule (blocks, suspensions), which every read path asks.
  const visibility = new Visibility(database.orm, cache, clock);
  const search = new SearchService(database, {
    cache,
    visibility,
    limiter,
    limits: config.rateLimits,
    cost: config.searchCost,
    postSearch: { newestPostTimes },
  });
  // One queue for every image this process decodes, post photos and icons alike.
  const images =
    givenImages ?? new ImageQueue(config.images.concurrency, config.images.queueLength, { cheapLanes: config.images.cheapLanes });
  if (metrics) images.observer = metrics.images;
  const directory = new UserDirectory(database.orm, cache, visibility);
  const users = new UserService(database.orm, directory, tracked, notices, limiter, config.rateLimits, images);
  const posts = new PostService(database.orm, tracked, limiter, config.rateLimits, directory, images, {
    cache,
    newestPostTimes,
  });
  // Notifications (issue 30): written by the services in their transactions, pushed from a queue.
  const notifier = new Notifier(config.appName);
  const vapidKeys = await loadVapidKeys(database.orm, config.notifications);
  const pushSender = new PushSender({
    db: database.orm,
    keys: vapidKeys,
    subject: config.notifications.vapidSubject,
    services: config.notifications.pushServices,
    log: app.log,
    retryBaseMs: pushRetryBaseMs,
  });
  app.decorate('pushSender', pushSender);
  changes.subscribe((change) => change.kind === 'push-queued' && pushSender.kick());
  // Retries, and pushes queued by a process that died before sending them.
  registerPeriodicTask(app, { name: 'push sending', everyMs: 15_000, atStart: true, task: () => pushSender.drain() });
  app.addHook('onClose', () => pushSender.idle());
  const activity = new ActivityService(database.orm, visibility, cache, notices);
  app.decorate('activity', activity);
  registerPeriodicTask(app, {
    name: 'notification retention',
    everyMs: 60 * 60 * 1000,
    atStart: true,
    task: () => activity.deleteOlderThan(config.notifications.retentionDays),
  });
  const notificationSettings = new NotificationSettingsService(database.orm, {
    keys: vapidKeys,
    services: config.notifications.pushServices,
    limiter,
    limits: config.rateLimits,
  });
  const follows = new FollowService(database.orm, directory, notices, notifier);
  const blocks = new BlockService(database.orm, directory, notices, limiter, config.rateLimits);
  const boards = new BoardService(database.orm, directory, cache, notices, limiter, config.rateLimits, notifier);
  const boardMembers = new BoardMemberService(database.orm, directory, notices, limiter, config.rateLimits, notifier);
  const resets = new PasswordResetService({
    db: database.orm,
    auth,
    sessions,
    limiter,
    limits: config.rateLimits,
    passwordCost: config.passwordHashing,
    mail,
  });
  const verifications = new EmailVerificationService({
    db: database.orm,
    limiter,
    limits: config.rateLimits,
    sessions,
    secret: serverSecret,
    mail,
  });
  const claims = new UsernameClaims({
    db: database.orm,
    secret: serverSecret,
    limiter,
    limits: config.rateLimits,
    registration: config.registration,
    passwordCost: config.passwordHashing,
    mail,
  });
  const emailVerifiedByAdmin = new EmailVerifiedByAdmin(database.orm, sessions);
  const sso =
    config.sso &&
    new SsoService({
      db: database.orm,
      config: config.sso,
      registration: config.registration,
      limiter,
      limits: config.rateLimits,
      sessions,
      mailVerifies: verification.mail,
      passwordCost: config.passwordHashing,
      secret: serverSecret,
      log: app.log,
      now: clock,
    });
  const invites = new Invites(database.orm);
  const deletion = new AccountDeletion(tracked, limiter, config.rateLimits, serverSecret);
  const moderation = new ModerationService({
    db: database.orm,
    files: tracked,
    changes: notices,
    limiter,
    limits: config.rateLimits,
    newAccountMs: config.reportNewAccountMs,
    notifier,
  });
  const roles = new Roles(database.orm, sessions);
  const storedEmails = new StoredEmails(database.orm);
  const dataExport = new DataExport({
    db: database.orm,
    storage: files,
    limiter,
    limits: config.rateLimits,
    concurrency: config.exportConcurrency,
    appName: config.appName,
    log: app.log,
  });

  await app.register(authRoutes(auth, verifications, claims, verification));
  await app.register(usernameClaimRoutes(claims, auth, verification));
  await app.register(accountSecurityRoutes(auth));
  await app.register(passwordResetRoutes(resets, auth, verification));
  await app.register(emailVerificationRoutes(verifications, verification));
  await app.register(ssoRoutes(sso, auth, verifications, verification));
  await app.register(inviteRoutes(invites));
  await app.register(deleteAccountRoutes(deletion));
  await app.register(exportRoutes(dataExport, config.exportStallMs, clock));
  await app.register(moderationRoutes(moderation, roles, emailVerifiedByAdmin));
  await app.register(postRoutes(posts));
  await app.register(userRoutes(users, verification));
  await app.register(followRoutes(follows));
  await app.register(blockRoutes(blocks));
  await app.register(searchRoutes(search));
  await app.register(boardRoutes(boards, boardMembers));
  await app.register(mediaRoutes(files));
  await app.register(activityRoutes(activity, notificationSettings));
  if (adminToken && database.dump && !config.s3) {
    await app.register(backupRoutes({ database, storage: files, dataDir: config.dataDir, token: adminToken }));
  }
  // npm run admin: the embedded database is this process's, so its commands run here.
  if (adminToken)
    await app.register(
      adminRoutes({
        context: { resets, invites, roles, storedEmails, emailVerifiedByAdmin, publicUrl: config.publicUrl },
        token: adminToken,
      }),
    );
  registerHealthRoutes(
    app,
    new ReadinessChecks({
      database,
      // Through the pausable deletions: a backup copying the files holds the probe's too.
      storage: files,
      redis: counterStore instanceof RedisCounterStore ? counterStore : undefined,
      changeFeed: feed,
      now: clock,
    }),
    draining,
  );
  metrics?.watch({
    cacheBytes: () => cache.regionBytes(),
    imageQueue: () => images.size,
    exportSlots: () => dataExport.slots,
    databasePool: () => database.poolUse(),
    statementsInFlight: () => database.statementsInFlight(),
  });
  registerMetricsRoute(app, metrics, config.metricsToken);
  app.get(UNSHARED_ROUTES.openapi.path, { schema: { hide: true }, config: { access: { kind: 'public' } } }, async () => app.swagger());

  await registerClientApp(app, config.clientDir, {
    appName: config.appName,
    forgotPassword: resets.mailsLinks,
    registration: config.registration,
    sso: config.sso?.name ?? null,
    ssoOnly: config.sso?.only ?? false,
    publicUrl: config.publicUrl,
  });
  // Connections this app opened are closed with it (the database belongs to the caller).
  app.addHook('onClose', async () => {
    if (!counters && counterStore instanceof RedisCounterStore) await counterStore.close();
    if (!givenStorage && storage instanceof S3Storage) storage.close();
    // Mail already promised goes out before the process ends.
    if (outbox) await (givenOutbox ? outbox.idle() : outbox.close());
  });
  return app;
}
