import pino from 'pino';
import { siteUrlOf, type Config } from '../config.ts';
import { migrate, openStore, type Store } from '../db/connect.ts';
import { pruneHandler, PRUNE_JOB, schedulePrune } from './prune.ts';
import { createJobQueue, type JobHandler, type JobLogger, type JobQueue, type JobSettings } from './queue.ts';
import { plainLine } from './retry.ts';
import { startRounds } from './rounds.ts';
import { indexPending, PENDING_PAGE } from '../resources/search/pending.ts';
import { outboxOf, type Outbox } from '../mail/outbox.ts';
import { CONFIRM_JOB, confirmHandler, mailDomain } from '../resources/email/confirmation.ts';
import { DISPATCH_JOB, dispatchHandler, SEND_MAIL_JOB, sendMailHandler } from '../resources/email/bulk.ts';
import { RECOVER_MAIL_JOB, recoverMailHandler } from '../resources/person/recovery.ts';
import { LINK_MAIL_JOB } from '../resources/person/magic.ts';
import { linkMailHandler } from '../resources/email/link.ts';
import { NOTIFY_JOB, notifyHandler, SEND_JOB, sendHandler } from '../resources/webpush/send.ts';
import { SENDER_CHECK_JOB, senderCheckHandler } from '../resources/sender/job.ts';
import { dnsOf } from '../mail/dns.ts';
import { CNAME_CHECK_JOB, cnameCheckHandler } from '../resources/event/cname.ts';
import type { ChangeRow } from '../resources/change/log.ts';
import { smsProviderOf, type SmsProvider } from '../mail/sms.ts';
import { SMS_JOB, smsHandler } from '../resources/sms/job.ts';
import { SANITY_CHECK_JOB, SANITY_JOB, sanityCheckHandler, sanityHandler } from '../resources/sanity/job.ts';
import { CRM_SYNC_JOB, crmSyncHandler } from '../resources/crmfeed/job.ts';
import { crmProviderOf } from '../resources/crmfeed/provider.ts';
import { startWebhooks, type WebhookOptions } from '../webhooks/index.ts';
import { reportHandlers } from '../reports/build.ts';
import { daemonHandlers } from '../daemons/run.ts';

// Where the platform's jobs are run: `podium worker` runs them alone (runWorker), so jobs scale apart
// from the API; `podium start` runs them in its own process (startJobs, over the API's store).

/** The JOBS_* settings. */
export function jobSettingsOf(config: Config): JobSettings {
  return {
    leaseSeconds: config.JOBS_LEASE_SECONDS,
    pollMs: config.JOBS_POLL_MS,
    maxAttempts: config.JOBS_MAX_ATTEMPTS,
    retrySeconds: config.JOBS_RETRY_SECONDS,
    retryMaxSeconds: config.JOBS_RETRY_MAX_SECONDS,
    concurrency: config.JOBS_CONCURRENCY,
    stopTimeoutMs: config.JOBS_STOP_TIMEOUT_MS,
    keepDays: config.JOBS_KEEP_DAYS,
  };
}

export interface Jobs {
  /** Where writes add their jobs: `jobs.queue.add(trx, name, payload, options)`. */
  readonly queue: JobQueue;
  /** Stops working (finishing or releasing the jobs in hand) and closes the queue; not the store. */
  stop(): Promise<void>;
  /** Tells the webhook feeder a change committed (the bus's changes), when this process works. */
  poke(): void;
}

/** The platform's own jobs, by name: what every worker runs (`queue`: where a job adds the jobs it fans out to). */
export function platformHandlers(
  store: Store,
  config: Config,
  logger: JobLogger,
  queue: Pick<JobQueue, 'add'>,
  outbox: Outbox,
  sms: SmsProvider = smsProviderOf(config, (path) => logger.info({ path }, 'sms written')),
  /** Where a job sends the changes it commits at once (the bus); without it they come by the bus's poll. */
  publish?: (changes: readonly ChangeRow[]) => unknown,
): Record<string, JobHandler> {
  const siteUrl = siteUrlOf(config);
  const dns = dnsOf(config);
  const bulk = {
    batch: config.MAIL_BATCH,
    rate: config.MAIL_EVENT_RATE,
    siteUrl,
    apiUrl: config.PUBLIC_API_URL ?? config.PODIUM_API_URL ?? `http://${config.HOST}:${config.API_PORT}`,
    mailFrom: config.MAIL_FROM,
    domain: mailDomain(config.MAIL_FROM),
    logger,
    emailAllowance: config.EMAIL_ALLOWANCE,
  };
  return {
    [PRUNE_JOB]: pruneHandler(store.db, config.CHANGE_LOG_DAYS),
    [RECOVER_MAIL_JOB]: recoverMailHandler(store.db, outbox, {
      siteUrl,
      delayMs: config.MAIL_DELAY_MS,
    }),
    [LINK_MAIL_JOB]: linkMailHandler(store.db, outbox, {
      siteUrl,
      mailFrom: config.MAIL_FROM,
      ttlSeconds: config.MAGIC_LINK_TTL,
    }),
    [DISPATCH_JOB]: dispatchHandler(store.db, queue, bulk),
    [SEND_MAIL_JOB]: sendMailHandler(store.db, outbox, bulk),
    [CONFIRM_JOB]: confirmHandler(store.db, outbox, {
      siteUrl,
      mailFrom: config.MAIL_FROM,
      linkTtlSeconds: config.MAGIC_LINK_CONFIRMATION_TTL,
      domain: mailDomain(config.MAIL_FROM),
      logger,
      emailAllowance: config.EMAIL_ALLOWANCE,
    }),
    [SANITY_JOB]: sanityHandler(store.db, queue, dns),
    [SANITY_CHECK_JOB]: sanityCheckHandler(store.db, dns),
    [SENDER_CHECK_JOB]: senderCheckHandler(store.db, dns, {
      spfInclude: config.SPF_INCLUDE ?? `include:${mailDomain(config.MAIL_FROM)}`,
      dkimSelector: config.DKIM_SELECTOR,
      dkimPublicKey: config.DKIM_PUBLIC_KEY,
    }),
    [CNAME_CHECK_JOB]: cnameCheckHandler(store.db, dns, publish),
    [SMS_JOB]: smsHandler(store.db, sms, { logger, allowance: config.SMS_ALLOWANCE }),
    [NOTIFY_JOB]: notifyHandler(store.db, queue),
    [CRM_SYNC_JOB]: crmSyncHandler(store.db, crmProviderOf(config), {
      batch: config.CRM_BATCH,
      secretKey: config.WEBHOOK_SECRET_KEY,
      logger,
    }),
    ...reportHandlers({ db: store.db, config, queue, logger }),
    ...daemonHandlers({ db: store.db, config, queue, logger }),
    [SEND_JOB]: sendHandler(store.db, {
      subject: config.VAPID_SUBJECT,
      rule: { hosts: config.WEBPUSH_HOSTS, allowHttp: config.WEBPUSH_ALLOW_HTTP === '1' },
      logger,
    }),
  };
}

/**
 * The job queue of an open store; with `work`, this process also runs the jobs (every handler: the
 * hourly change.prune, the e-mails). Started after migrate(): on SQLite the job table must exist.
 */
export async function startJobs(
  store: Store,
  config: Config,
  /** `handlers`: more jobs this process runs, by name, beside the platform's own (platformHandlers). */
  options: {
    work: boolean;
    logger: JobLogger;
    handlers?: Readonly<Record<string, JobHandler>>;
    webhooks?: WebhookOptions;
    /** Where jobs send the changes they commit (the bus of `podium start`, made after the jobs). */
    publish?: (changes: readonly ChangeRow[]) => unknown;
  },
): Promise<Jobs> {
  const queue = await createJobQueue({
    ...store,
    url: config.DATABASE_URL,
    settings: jobSettingsOf(config),
    logger: options.logger,
  });
  if (!options.work) return { queue, stop: () => queue.stop(), poke() {} };
  const webhooks = startWebhooks(store, config, queue, options.logger, options.webhooks);
  // SMTP when SMTP_URL is set, else .eml files; the log gets a file's path, never its content (links
  // are secrets).
  const outbox = outboxOf(config, (path) => options.logger.info({ path }, 'mail written'));
  await queue.work({
    ...options.handlers,
    ...platformHandlers(store, config, options.logger, queue, outbox, undefined, options.publish),
    ...webhooks.handlers,
  });
  await webhooks.start();
  // Attendees' search documents, written after their writes (resources/search/pending.ts): on the timer
  // only, not on every change, so that a round writes the attendees of many registrations at once.
  const searchRounds = startRounds(
    () => indexPending(store.db),
    PENDING_PAGE,
    config.SEARCH_PENDING_MS,
    (err) => options.logger.error({ err: plainLine(err) }, 'search: indexing attendees failed'),
  );
  const stopPruning = schedulePrune(queue, store.db, (err) =>
    options.logger.error({ err: plainLine(err) }, 'jobs: could not schedule change.prune'),
  );
  return {
    queue,
    poke: webhooks.poke,
    stop: async () => {
      stopPruning();
      await searchRounds.stop();
      await webhooks.stopFeeding();
      await queue.stop();
      await webhooks.close();
      outbox.close();
    },
  };
}

/** `podium worker`: opens the store, brings it up to date, runs jobs until stop(). */
export async function runWorker(
  config: Config,
  opts: { logStream?: NodeJS.WritableStream } = {},
): Promise<{ readonly store: Store; readonly jobs: Jobs; stop(): Promise<void> }> {
  const log = pino({ level: config.LOG_LEVEL }, opts.logStream ?? process.stdout);
  const store = openStore(config.DATABASE_URL, { sqliteCheckpointMs: config.SQLITE_CHECKPOINT_MS });
  try {
    await migrate(store.db);
    const jobs = await startJobs(store, config, { work: true, logger: log });
    log.info({ store: store.kind, concurrency: config.JOBS_CONCURRENCY }, 'worker started');
    return {
      store,
      jobs,
      stop: async () => {
        await jobs.stop();
        await store.db.destroy();
        log.info('worker stopped');
      },
    };
  } catch (err) {
    await store.db.destroy();
    throw err;
  }
}
