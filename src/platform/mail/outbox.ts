import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import type MailComposerClass from 'nodemailer/lib/mail-composer';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';

// nodemailer is loaded when the first message is composed, not by every process that imports this one
// (a worker that sends no mail: docs/api/reports.md "Memory"); require caches it.
const load = createRequire(import.meta.url);
const mailer = {
  get createTransport() {
    return (load('nodemailer') as typeof Nodemailer).createTransport;
  },
  get MailComposer() {
    return load('nodemailer/lib/mail-composer') as typeof MailComposerClass;
  },
  get SMTPConnection() {
    return load('nodemailer/lib/smtp-connection') as typeof SMTPConnection;
  },
};

/**
 * A file the message carries. Its content is always bytes or text the platform made (an .ics, a QR
 * image): there is deliberately no `path`, so no caller-given name can make a message read a file.
 */
export interface Attachment {
  readonly filename: string;
  readonly content: Buffer | string;
  readonly contentType: string;
  /** Content-ID, for an image the HTML shows inline (`<img src="cid:…">`). */
  readonly cid?: string;
}

/** One message as the platform composes it. */
export interface Message {
  readonly to: string;
  readonly subject: string;
  /** The plain text: links stay copyable in any mail client. */
  readonly text: string;
  readonly html?: string;
  /** The sender (default: MAIL_FROM); as name and address, nodemailer quotes the name. */
  readonly from?: string | { readonly name: string; readonly address: string };
  /** Where replies go (the organizer's address while From is the platform's). */
  readonly replyTo?: string;
  readonly attachments?: readonly Attachment[];
  /** Extra headers (List-Unsubscribe, …). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A Message-ID fixed by the caller, so a message sent again is recognisably the same one. */
  readonly messageId?: string;
}

export interface Outbox {
  /**
   * Composes the message (RFC 5322, by nodemailer) and delivers it; answers where it went. With
   * `commit`, an outbox that is `committing` calls it once the receiver has the whole message but has
   * not yet been told it is complete, and completes it only when commit answers true (else it throws
   * Abandoned); other outboxes ignore it.
   */
  send(message: Message, commit?: () => Promise<boolean>): Promise<string>;
  /** Whether send() honours `commit` (SMTP): a message whose commit never ran did not arrive. */
  readonly committing?: boolean;
  /** Closes the transport's connections. */
  close(): void;
}

/** The address part of `Name <address>` (or the whole value). */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** A header value with a line break would start a header of its own (header injection). */
const BREAK = /[\r\n]/;

/** nodemailer's options for a message; refuses line breaks in any header value. */
function mailOptions(m: Message, defaultFrom: string) {
  const from = m.from ?? defaultFrom;
  const fromText = typeof from === 'string' ? from : `${from.name} ${from.address}`;
  for (const [name, value] of [
    ['to', m.to],
    ['subject', m.subject],
    ['from', fromText],
    ['reply-to', m.replyTo ?? ''],
    ...Object.entries(m.headers ?? {}),
  ])
    // prettier-ignore
    if (BREAK.test(value)) throw new Error(`mail: the ${name} header contains a line break`);
  return {
    from: typeof from === 'string' ? from : { ...from },
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.html !== undefined ? { html: m.html } : {}),
    ...(m.messageId ? { messageId: m.messageId } : {}),
    ...(m.replyTo ? { replyTo: m.replyTo } : {}),
    headers: { ...m.headers },
    attachments: (m.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      ...(a.cid ? { cid: a.cid } : {}),
    })),
  };
}

// nodemailer composes the message exactly as it would go over SMTP; the stream transport hands back
// the raw bytes instead of connecting anywhere.
let composer: ReturnType<typeof makeComposer> | undefined;
const makeComposer = () => mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/**
 * The embedded default: each message written as `<MAIL_DIR>/<time>-<random>.eml`, so a newcomer sees
 * exactly what would have gone out. The log gets the path, never the content (links are secrets).
 * Messages are sent by jobs (src/platform/jobs), not inside requests.
 */
export function fileOutbox(dir: string, from: string, log?: (path: string) => void): Outbox {
  const folder = resolve(dir);
  return {
    async send(m) {
      const info = await (composer ??= makeComposer()).sendMail(mailOptions(m, from));
      await mkdir(folder, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}`;
      const path = join(folder, `${name}.eml`);
      // Written whole under another name, then renamed: whoever reads the folder (a person, a test, a
      // pickup) never sees an .eml half written.
      const partial = join(folder, `.${name}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, path);
      log?.(path);
      return path;
    },
    close() {},
  };
}

export interface SmtpOptions {
  readonly url: string;
  readonly from: string;
  readonly maxConnections: number;
  /** Messages per second (0: no limit). */
  readonly rate: number;
}

/** Thrown by send() when `commit` answered false: the message was never completed, so it did not go. */
export class Abandoned extends Error {
  constructor() {
    super('mail: abandoned before the end of data (another run has the message)');
  }
}

/** Messages one connection carries before it is closed and opened anew (as nodemailer's pool does). */
const MESSAGES_PER_CONNECTION = 100;

interface Lane {
  conn?: SMTPConnection;
  sent: number;
}

/**
 * SMTP, by nodemailer's SMTPConnection over a pool of `maxConnections` connections, rate-limited when
 * asked. Messages are composed once (MailComposer) and sent whole. With `commit`, the end of the
 * message (the final dot) waits for it: the server has every byte but has not taken the message, so a
 * process killed before the commit leaves a message that never arrived (a server drops an unfinished
 * DATA), and one whose commit answered false is abandoned (the connection is dropped). That is what lets
 * deliver() send a message exactly once across a worker crash (docs/messaging.md "Dispatch"). An SMTP
 * error is thrown as it is (its responseCode tells a hard bounce, see isPermanent), with `committed`
 * set when it came after the commit.
 */
export function smtpOutbox(options: SmtpOptions): Outbox {
  const url = new URL(options.url);
  const secure = url.protocol === 'smtps:';
  const connection = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  };
  const auth = url.username
    ? { credentials: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
    : undefined;
  const free: Lane[] = Array.from({ length: options.maxConnections }, () => ({ sent: 0 }));
  const waiting: ((lane: Lane) => void)[] = [];
  let closed = false;
  let nextSlot = 0;

  const acquire = () =>
    new Promise<Lane>((resolve) => {
      const lane = free.pop();
      if (lane) resolve(lane);
      else waiting.push(resolve);
    });
  const release = (lane: Lane) => {
    const next = waiting.shift();
    if (next) next(lane);
    else free.push(lane);
  };
  const drop = (lane: Lane) => {
    lane.conn?.close();
    lane.conn = undefined;
  };
  /** SMTP_RATE: each message waits for its slot, 1 / rate s after the last one's. */
  const paced = async () => {
    if (options.rate <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + 1000 / options.rate;
    if (slot > now) await new Promise((r) => setTimeout(r, slot - now));
  };

  async function connected(lane: Lane): Promise<SMTPConnection> {
    if (lane.conn && lane.sent >= MESSAGES_PER_CONNECTION) {
      lane.conn.quit();
      lane.conn = undefined;
    }
    if (lane.conn) return lane.conn;
    const conn = new mailer.SMTPConnection(connection);
    // An idle connection the server closed, or a socket error between messages: opened anew next time.
    const forget = () => {
      if (lane.conn === conn) lane.conn = undefined;
    };
    conn.on('error', forget);
    conn.on('end', forget);
    await new Promise<void>((resolve, reject) => {
      conn.once('error', reject);
      conn.connect(() => {
        conn.off('error', reject);
        resolve();
      });
    });
    if (auth) await new Promise<void>((resolve, reject) => conn.login(auth, (err) => (err ? reject(err) : resolve())));
    lane.conn = conn;
    lane.sent = 0;
    return conn;
  }

  return {
    committing: true,
    async send(m, commit) {
      const mail = mailOptions(m, options.from);
      const node = new mailer.MailComposer(mail).compile();
      const raw = await node.build();
      const from = typeof mail.from === 'string' ? addressOf(mail.from) : mail.from.address;
      await paced();
      if (closed) throw new Error('mail: the SMTP outbox is closed');
      const lane = await acquire();
      try {
        const conn = await connected(lane).catch((err: unknown) => {
          drop(lane);
          throw err;
        });
        return await new Promise<string>((resolve, reject) => {
          let committed = commit === undefined;
          let abandoned = false;
          let started = false;
          const body = new Readable({
            read() {
              // First read: the server took the envelope and said 354; the whole message goes now,
              // its end only after the commit.
              if (started) return;
              started = true;
              this.push(raw);
              if (commit === undefined) return void this.push(null);
              commit().then(
                (ok) => {
                  if (ok) {
                    committed = true;
                    this.push(null);
                    return;
                  }
                  abandoned = true;
                  drop(lane);
                  reject(new Abandoned());
                },
                (err: unknown) => {
                  abandoned = true;
                  drop(lane);
                  reject(err as Error);
                },
              );
            },
          });
          conn.send({ from, to: [m.to] }, body, (err, info) => {
            if (abandoned) return;
            if (err) {
              // A refused recipient or message leaves the connection usable, but a reset costs as much
              // as a new one on loopback; any error drops it.
              drop(lane);
              return reject(Object.assign(err, { committed }));
            }
            lane.sent++;
            resolve(node.messageId() || info.response);
          });
        });
      } finally {
        release(lane);
      }
    },
    close() {
      closed = true;
      for (const lane of free) drop(lane);
    },
  };
}

/** The outbox the configuration names: SMTP when SMTP_URL is set, else .eml files under MAIL_DIR. */
export function outboxOf(
  config: { SMTP_URL?: string; MAIL_DIR: string; MAIL_FROM: string; SMTP_MAX_CONNECTIONS: number; SMTP_RATE: number },
  log: (path: string) => void,
): Outbox {
  if (config.SMTP_URL)
    return smtpOutbox({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      maxConnections: config.SMTP_MAX_CONNECTIONS,
      rate: config.SMTP_RATE,
    });
  return fileOutbox(config.MAIL_DIR, config.MAIL_FROM, log);
}

/**
 * Whether a send failed for good: the server refused the recipient or the message with a 5xx reply
 * (a hard bounce). Anything else (4xx, a refused connection, a timeout) is worth another attempt.
 */
export function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
