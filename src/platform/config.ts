import { z } from 'zod';
import { appSchemeProblem } from '../shared/app-scheme.ts';
import { trustProxyProblem } from '../net/trust-proxy.ts';

const port = z.coerce.number().int().min(0).max(65535);
const httpUrl = z
  .string()
  .refine((v) => /^https?:\/\/[^/?#]+/i.test(v) && URL.canParse(v), 'must be an http:// or https:// address')
  .transform((v) => v.replace(/\/+$/, ''));
const perSecond = z.coerce.number().int().min(1);

const schema = z.object({
  /** Address the API and the site listen on. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the platform API. */
  API_PORT: port.default(8080),
  /** Port of the public website (Astro). */
  SITE_PORT: port.default(4321),
  /** The store: file:./path.db for SQLite (node:sqlite), postgres://… for PostgreSQL. */
  DATABASE_URL: z
    .string()
    .default('file:./data/podium.db')
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), 'must start with file: or postgres://'),
  /**
   * On SQLite, ms between the checkpoints a thread of their own runs (docs/deploy.md "SQLite"), so
   * the thread that answers requests never waits for the disk; 0 leaves them to SQLite, which runs them
   * in the writing thread.
   */
  SQLITE_CHECKPOINT_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /** When set, rate-limit counters are shared through this Redis. */
  REDIS_URL: z
    .string()
    .refine((v) => /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://')
    .optional(),
  /**
   * Milliseconds between the bus's reads of the change log, which deliver changes whose publish was
   * lost (a process that died between its commit and its publish, a writer outside the API).
   */
  BUS_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /**
   * Proxy addresses (comma-separated IPs/CIDRs) whose X-Forwarded-For is believed. One reader
   * (src/net/trust-proxy.ts) checks it here and matches it in the API and the site alike.
   */
  TRUST_PROXY: z
    .string()
    .superRefine((v, c) => {
      const problem = trustProxyProblem(v);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /**
   * Shared secret of the public site: a call carrying it in X-Podium-Site-Key is the site's, and its
   * X-Podium-Client-IP (the visitor) is the address the per-client limits count. `podium start`
   * generates one for its own site when unset.
   */
  SITE_API_KEY: z
    .string()
    .regex(/^[\x21-\x7e]{32,256}$/, 'must be 32 to 256 printable characters without spaces')
    .optional(),
  /** Calls per second allowed for one token (spec §8). */
  RATE_LIMIT_TOKEN: perSecond.default(10),
  /**
   * Unknown codes one check-in device (token) may scan per minute before its scans are refused with
   * 429 until the minute is over: guessing codes at a door is slowed to a crawl (docs/api/checkin.md).
   */
  CHECKIN_UNKNOWN_PER_MINUTE: perSecond.default(30),
  /** Chat messages one person may send in one event per minute; more are 429 (docs/api/chat.md). */
  CHAT_PER_MINUTE: perSecond.default(20),
  /** Error reports (error.create) one client address may send per hour; more are 429 (docs/api/errors.md). */
  ERROR_REPORTS_PER_HOUR: perSecond.default(60),
  /**
   * event.search ranks at most this many matches, the first in the index's order (docs/api/search.md
   * "Common words"): a word in most of a big event costs a bounded ranking; its pages end there.
   */
  SEARCH_RANK_CAP: z.coerce.number().int().min(1).max(1_000_000).default(3000),
  /** Calls per second allowed from one client address (spec §8). */
  RATE_LIMIT_CLIENT: perSecond.default(100),
  /** Days a token from person.signIn stays valid. */
  TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Seconds an event magic link (person.requestLink, the "My registration" link of the confirmation
   * e-mail) stays valid before person.signInLink refuses it (docs/api/magic-links.md).
   */
  MAGIC_LINK_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(900),
  /**
   * Seconds the "My registration" link of the registration confirmation e-mail stays valid: the mail is
   * read later than a link asked for now (default 7 days).
   */
  MAGIC_LINK_CONFIRMATION_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(7 * 86_400),
  /** Links person.requestLink sends to one e-mail address per hour; more are 429. */
  MAGIC_LINK_PER_EMAIL_HOUR: perSecond.default(5),
  /** Links one client address may ask for per hour (person.requestLink); more are 429. */
  MAGIC_LINK_PER_CLIENT_HOUR: perSecond.default(30),
  /** Wrong link codes one client address may send to person.signInLink per 15 minutes; more are 429. */
  MAGIC_LINK_WRONG_PER_CLIENT: perSecond.default(20),
  /**
   * Where messages are written as .eml files while no mail transport is configured: every e-mail the
   * platform would send (password links today) lands here, its path in the log. E-mails are jobs: the
   * process that runs them (a worker, or `podium start` with JOBS_WORK=1) writes them here.
   */
  MAIL_DIR: z.string().min(1).default('./data/mail'),
  /**
   * For tests only: milliseconds a mail job waits between making its message's code and writing the
   * message, so a test can stop a worker in the middle of a job. Leave 0.
   */
  MAIL_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** The platform's sender address. */
  MAIL_FROM: z
    .string()
    .min(3)
    .refine((v) => !/[\r\n]/.test(v), 'cannot contain line breaks')
    .default('Podium <no-reply@podium.localhost>'),
  /**
   * The SMTP server e-mails go through (smtp://user:pass@host:587 or smtps://…:465; nodemailer's URL
   * form, options such as ?pool=true in the query). Unset: messages are written under MAIL_DIR instead.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://… or smtps://…')
    .optional(),
  /** SMTP connections kept open at once (nodemailer's pool). */
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(5),
  /** Most messages per second through SMTP, platform-wide per process (0: no limit). */
  SMTP_RATE: z.coerce.number().int().min(0).max(100_000).default(0),
  /** Most messages per second one event's event.email.dispatch sends (its sends are spread at this rate). */
  MAIL_EVENT_RATE: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Recipients one dispatch job takes at a time (the rest follow in later jobs). */
  MAIL_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /**
   * DNS servers that sender and address checks ask (event.sender.refresh, event.sanity.*), as
   * `ip` or `ip:port`, comma-separated. Unset: the system's resolvers. Tests point it at a local server.
   */
  DNS_SERVERS: z
    .string()
    .regex(/^[0-9a-f.:[\]]+(,[0-9a-f.:[\]]+){0,9}$/i, 'must be addresses (ip or ip:port) separated by commas')
    .transform((v) => v.split(','))
    .optional(),
  /** Milliseconds one DNS question waits for its answer (each is tried twice). */
  DNS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  /** The DKIM selector a sender's domain publishes the platform's key under (<selector>._domainkey.<domain>). */
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/i, 'must be one DNS label')
    .default('podium'),
  /** The platform's DKIM public key (base64, the p= of the record); unset: any non-empty key is taken as ok. */
  DKIM_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/=]{16,4096}$/, 'must be base64')
    .optional(),
  /** The SPF mechanism a sender's SPF record must hold (default: include:<MAIL_FROM's domain>). */
  SPF_INCLUDE: z
    .string()
    .regex(/^(include|ip4|ip6|a|mx):[^\s]{1,253}$/, 'must be one SPF mechanism such as include:_spf.example.com')
    .optional(),
  /**
   * The secret an MTA or mail provider sends (Q secret) to report bounces (event.email.bounce). Unset:
   * the endpoint answers 404 to everyone.
   */
  BOUNCE_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** E-mails a company may send when it has no e-mail balance of its own (billing.find; 0: none). */
  EMAIL_ALLOWANCE: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000),
  /** SMS a company may send when it has no SMS balance of its own. */
  SMS_ALLOWANCE: z.coerce.number().int().min(0).max(1_000_000_000).default(100),
  /**
   * The SMS provider: an http(s) address that takes a JSON POST {to, text, eventID, id} (docs/messaging.md
   * "SMS"). Unset: every SMS is written as a .sms.json file under MAIL_DIR/sms.
   */
  SMS_URL: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, 'must be http://… or https://…')
    .optional(),
  /** Sent as `Authorization: Bearer <SMS_TOKEN>` to SMS_URL. */
  SMS_TOKEN: z.string().min(1).optional(),
  /** Most SMS one telephone number receives per hour (event.sendSMS). */
  SMS_PER_NUMBER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(3),
  /** Most SMS one event sends per hour. */
  SMS_PER_EVENT_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(500),
  /** Most SMS one network address may ask for per hour (the operation is public). */
  SMS_PER_ADDRESS_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /**
   * The CRM provider (crmfeed.*, company.person.sync; docs/api/crmfeed.md): the base http(s) address of
   * the one provider the platform speaks to. Callers never name an address: every request goes to this
   * origin, so no caller can make the platform probe another host. Unset: no event can be linked.
   */
  CRM_URL: httpUrl.optional(),
  /** Sent as `X-Platform-Token` with every request to CRM_URL (the platform's own key there, if it has one). */
  CRM_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{1,2000}$/, 'must be visible ASCII characters')
    .optional(),
  /** How errors name the provider (`502 CRM provider <name> …`); default: CRM_URL's host. */
  CRM_NAME: z
    .string()
    .regex(/^[\w .:-]{1,60}$/, 'must be at most 60 letters, digits, spaces, dots, colons or dashes')
    .optional(),
  /** Milliseconds one request to the CRM provider may take, answer included. */
  CRM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Largest answer read from the CRM provider, in bytes; a longer one is a provider error. */
  CRM_MAX_BYTES: z.coerce.number().int().min(1024).max(64_000_000).default(1_048_576),
  /** People company.person.sync pushes to the provider in one request. */
  CRM_BATCH: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Folder that bulk operations (B path) may read files from. */
  IMPORT_DIR: z.string().default('./data/imports'),
  /** Largest request body accepted, in bytes. */
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
  /** Most parameters one query string, and one form body, may hold (counted before parsing). */
  PARAM_LIMIT: z.coerce.number().int().min(10).max(1_000_000).default(1000),
  /** pino log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The platform API the site reads (default: this process's API, http://127.0.0.1:API_PORT). */
  PODIUM_API_URL: httpUrl.optional(),
  /** The API's address as browsers reach it (the registration widget); default PODIUM_API_URL or the local API. */
  PUBLIC_API_URL: httpUrl.optional(),
  /**
   * The mobile app's URL scheme (spec §4.11), e.g. `myapp`: the site's /appURL.php redirects to
   * `APP_SCHEME://?tokenID=…&eventID=…&memberID=…&name=…`. A scheme name only; unset: /appURL.php is 404.
   */
  APP_SCHEME: z
    .string()
    .superRefine((v, c) => {
      const problem = appSchemeProblem(v);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** 1 serves the public website on SITE_PORT with `podium start`; 0 serves the API only. */
  SITE: z.enum(['0', '1']).default('1'),
  /** The public address of the platform's own site (canonical URLs, sitemaps); default http://HOST:SITE_PORT. */
  SITE_URL: httpUrl.optional(),
  /** More host names of the platform's own site (comma-separated); any other Host must be an event's cname. */
  SITE_HOSTS: z
    .string()
    .default('localhost,127.0.0.1')
    .refine(
      (v) => v.split(',').every((h) => /^[a-z0-9.:-]*$/i.test(h.trim())),
      'must be host names separated by commas',
    ),
  /**
   * The platform's home (`/` on its own host) as a directory of these companies, by namespace, in this
   * order (comma-separated, at most 20): the platform has no public list of companies, so the operator
   * names the ones it shows. Unset: `/` says what Podium is and links the demo event.
   */
  SITE_DIRECTORY: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((n) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(n)),
      'must be company namespaces (a-z, 0-9, -) separated by commas',
    )
    .refine((list) => list.length <= 20, 'must name at most 20 companies')
    .default([]),
  /** 0 renders every page (no page cache): for benchmarks and debugging. */
  SITE_PAGE_CACHE: z.enum(['0', '1']).default('1'),
  /** Milliseconds the site reuses a platform answer before asking again (0: ask for every page). */
  SITE_DATA_FRESH_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** 1 seeds the demo company and event when the store is empty at start. */
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  /** First day of the demo event, YYYY-MM-DD (default: 30 days from today); fixed dates make demos reproducible. */
  DEMO_START: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date such as 2037-12-21')
    .optional(),
  /** `1`: the API process runs jobs too (`podium start`); `0`: it only adds them, for `podium worker` processes. */
  JOBS_WORK: z.enum(['0', '1']).default('1'),
  /** Jobs one worker runs at once (`podium worker`, and the workers of `podium start`). */
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  /**
   * Seconds a running job holds its lease: if its worker dies, another takes the job after this. Longer
   * than the slowest job, which otherwise counts as lost and runs again.
   */
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** How often an idle worker looks for due jobs, in ms (a job added by the same process wakes it at once). */
  JOBS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Attempts of a job before it is kept as failed. */
  JOBS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  /** First retry's delay in seconds; it doubles with each attempt, with jitter. */
  JOBS_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(5),
  /** Longest delay between two attempts, in seconds. */
  JOBS_RETRY_MAX_SECONDS: z.coerce.number().int().min(1).max(604_800).default(3600),
  /** On shutdown, how long the jobs in hand may take to finish (ms) before they are released. */
  JOBS_STOP_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Days failed jobs are kept (and listed). */
  JOBS_KEEP_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Days the change log keeps its rows (the change.prune job deletes older ones, hourly). */
  CHANGE_LOG_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /**
   * Streams (Server-Sent Events: change.subscribe, push.subscribe) open at once on one process; one more
   * is answered 503 with Retry-After. Each holds a socket and at most 256 KiB of unsent messages.
   */
  STREAM_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Milliseconds between the comment lines that keep a quiet stream open through proxies. */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /**
   * Streams open at once from one client address (as the platform reads it: TRUST_PROXY, the site's
   * forwarded visitor); one more is answered 429. Every attendee on a venue's Wi-Fi may share one
   * address, hence the room: raise it for large events behind one NAT (docs/push.md "Limits").
   */
  STREAM_MAX_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /**
   * The contact the push services see in every Web Push send (the VAPID `sub` claim): a mailto: address
   * or an https:// page of the operator, so a push service can reach whoever runs the platform.
   */
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^mailto:[^\s@]+@[^\s@]+$/.test(v) || /^https:\/\/[^\s/]+/.test(v), 'must be mailto:… or https://…')
    .default('mailto:no-reply@podium.localhost'),
  /**
   * The push services a browser's subscription may name (comma-separated host names; a subdomain of one
   * counts): the platform POSTs to that address, so any other host is refused (no requests to the
   * operator's own network). The default lists the services of Chrome, Firefox, Safari and Edge.
   */
  WEBPUSH_HOSTS: z
    .string()
    .default('fcm.googleapis.com,push.services.mozilla.com,web.push.apple.com,notify.windows.com')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((list) => list.every((h) => /^[a-z0-9.-]+$/.test(h)), 'must be host names separated by commas'),
  /** For tests and development only: 1 also accepts http:// endpoints on any port (still only WEBPUSH_HOSTS). */
  WEBPUSH_ALLOW_HTTP: z.enum(['0', '1']).default('0'),
  /** Web Push subscriptions one client network (/24, /48) may hold in one event (a venue's Wi-Fi is one). */
  WEBPUSH_MAX_PER_NET: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  /** Web Push subscriptions one event may hold. */
  WEBPUSH_MAX_PER_EVENT: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /**
   * The key that seals webhook signing secrets in the store (AES-256-GCM): 32 bytes, as 64 hex digits
   * or base64. Without it, webhook.create and webhook.rotate answer 503 (docs/webhooks.md "Secrets").
   */
  WEBHOOK_SECRET_KEY: z
    .string()
    .transform((v) => Buffer.from(v, /^[0-9a-f]{64}$/i.test(v) ? 'hex' : 'base64'))
    .refine((b) => b.length === 32, 'must be 32 bytes, as 64 hex digits or base64')
    .optional(),
  /** 1 lets webhooks reach loopback, private and link-local addresses (tests, development only). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /** 1 accepts http: webhook addresses (development only); else https: only. */
  WEBHOOK_ALLOW_HTTP: z.enum(['0', '1']).default('0'),
  /** Milliseconds a delivery waits for the receiver's answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Delays before each retry of a webhook delivery, ms, comma-separated (each with up to 20% jitter, and
   * at least what a Retry-After asked): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 3 days. Tests shorten it.
   */
  WEBHOOK_RETRY_MS: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,19}$/, 'must be milliseconds separated by commas')
    .transform((v) => v.split(',').map(Number))
    .default([5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000, 259_200_000]),
  /** Milliseconds between the webhook feeder's reads of the change log when the bus tells it nothing. */
  WEBHOOK_FEED_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /**
   * Milliseconds between rounds that write the search documents of attendees written since (event.search
   * finds an attendee at most this much after their registration or edit; docs/api/search.md).
   */
  SEARCH_PENDING_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /**
   * Milliseconds between rounds that queue registrations' confirmation e-mails from the change log (one
   * round takes the registrations of this long together; docs/messaging.md).
   */
  CONFIRM_FEED_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /**
   * Milliseconds between the rounds that queue the address checks of attendees registered or edited
   * since (resources/sanity/job.ts; docs/messaging.md "Address checks").
   */
  SANITY_FEED_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Seconds a ready report (format=excel-daemon) can be downloaded before it expires and its file is deleted: 7 days. */
  REPORT_TTL_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(604_800),
  /** Rows a report job reads from the store at a time (its memory holds one such page). */
  REPORT_PAGE_ROWS: z.coerce.number().int().min(10).max(20_000).default(500),
  /** Most items one daemon.bulk may hold (docs/api/daemons.md); one more is 413. */
  DAEMON_MAX_ITEMS: z.coerce.number().int().min(1).max(100_000).default(10_000),
  /** Items one run of a bulk daemon's job processes before it hands over to the next run (a job of its own). */
  DAEMON_BATCH: z.coerce.number().int().min(1).max(10_000).default(200),
});

export type Config = Readonly<z.infer<typeof schema>>;

/** The names of every setting (the README's table lists them all: tests/lint/readme-settings.test.ts). */
export const SETTINGS: readonly string[] = Object.keys(schema.shape);

/** The platform's own site (SITE_URL, else HOST:SITE_PORT): where e-mails, SMS and previews lead. */
export const siteUrlOf = (c: Pick<Config, 'SITE_URL' | 'HOST' | 'SITE_PORT'>): string =>
  c.SITE_URL ?? `http://${c.HOST}:${c.SITE_PORT}`;

export class ConfigError extends Error {}

/** Reads and validates the configuration; the only place that reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(result.data);
}
