import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';

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
  /** Composes the message (RFC 5322, by nodemailer) and delivers it; answers where it went. */
  send(message: Message): Promise<string>;
  /** Closes the transport's connections. */
  close(): void;
}

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
const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/**
 * The embedded default: each message written as `<MAIL_DIR>/<time>-<random>.eml`, so a newcomer sees
 * exactly what would have gone out. The log gets the path, never the content (links are secrets).
 * Messages are sent by jobs (src/platform/jobs), not inside requests.
 */
export function fileOutbox(dir: string, from: string, log?: (path: string) => void): Outbox {
  const folder = resolve(dir);
  return {
    async send(m) {
      const info = await composer.sendMail(mailOptions(m, from));
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

/**
 * nodemailer over SMTP: a pool of connections, rate-limited when asked. An SMTP error is thrown as it
 * is (its responseCode tells a hard bounce, see isPermanent); the job that sends retries the rest.
 */
export function smtpOutbox(options: SmtpOptions): Outbox {
  // The URL's own settings (auth, ?secure=…) win over these, as nodemailer merges them.
  const transport: Transporter = createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.maxConnections,
    ...(options.rate > 0 ? { rateDelta: 1000, rateLimit: options.rate } : {}),
  });
  return {
    async send(m) {
      const info = await transport.sendMail(mailOptions(m, options.from));
      return info.messageId;
    },
    close() {
      transport.close();
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
