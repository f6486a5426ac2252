import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport } from 'nodemailer';

/** One message as the platform composes it (plain text: links stay copyable in any mail client). */
export interface Message {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Outbox {
  /** Composes the message (RFC 5322, by nodemailer) and delivers it; answers where it went. */
  send(message: Message): Promise<string>;
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
      const info = await composer.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
      await mkdir(folder, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}`;
      const path = join(folder, `${name}.eml`);
      // Written whole under another name, then renamed: whoever reads the folder (a person, a test, a
      // pickup) never sees an .eml half written.
      const partial = join(folder, `.${name}.partial`);
      await writeFile(partial, info.message, { mode: 0o600 });
      await rename(partial, path);
      log?.(path);
      return path;
    },
  };
}
