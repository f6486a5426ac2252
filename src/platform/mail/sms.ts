import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

// Text messages (issue 15 outcome 6): a provider interface with two providers. SMS_URL names an HTTP
// provider (or a small adapter in front of a real one) that takes one JSON POST per message; without
// it, on the embedded default, every message is written as a .sms.json file under MAIL_DIR/sms, as
// e-mails are written as .eml files. Messages are sent by jobs, never inside requests.

/** One text message. */
export interface Sms {
  /** E.164: +<country><number>. */
  readonly to: string;
  readonly text: string;
  readonly eventID: number;
  /** The smsLog row: the same id on a retry, so a provider can drop a duplicate (Idempotency-Key). */
  readonly id: number;
}

export interface SmsProvider {
  /** Sends one message; answers where it went (a file path, the provider's answer). */
  send(sms: Sms): Promise<string>;
}

/** A provider's refusal of this message for good (an HTTP 4xx other than 408/429): not retried. */
export class SmsRefused extends Error {}

export function fileSms(dir: string, log?: (path: string) => void): SmsProvider {
  const folder = join(resolve(dir), 'sms');
  return {
    async send(sms) {
      await mkdir(folder, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}`;
      const path = join(folder, `${name}.sms.json`);
      const partial = join(folder, `.${name}.partial`);
      await writeFile(partial, JSON.stringify({ to: sms.to, text: sms.text, eventID: sms.eventID, id: sms.id }) + '\n', { mode: 0o600 }); // prettier-ignore
      await rename(partial, path);
      log?.(path);
      return path;
    },
  };
}

/**
 * The HTTP provider: `POST <SMS_URL>` with `Content-Type: application/json`, body
 * `{"to":"+351912345678","text":"…","eventID":12,"id":345}`, `Idempotency-Key: sms-<id>` and, with
 * SMS_TOKEN, `Authorization: Bearer <SMS_TOKEN>`. A 2xx is sent; a 4xx (but 408, 429) is a refusal
 * for good; anything else (5xx, 408, 429, no answer in timeoutMs) is retried by the job.
 */
export function httpSms(url: string, token: string | undefined, timeoutMs = 10_000): SmsProvider {
  return {
    async send(sms) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `sms-${sms.id}`,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ to: sms.to, text: sms.text, eventID: sms.eventID, id: sms.id }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      if (res.ok) return `HTTP ${res.status}`;
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
        throw new SmsRefused(`the SMS provider refused the message (HTTP ${res.status})`);
      throw new Error(`the SMS provider answered HTTP ${res.status}`);
    },
  };
}

/** The provider the configuration names: HTTP when SMS_URL is set, else files under MAIL_DIR/sms. */
export function smsProviderOf(
  config: { SMS_URL?: string; SMS_TOKEN?: string; MAIL_DIR: string },
  log: (path: string) => void,
): SmsProvider {
  return config.SMS_URL ? httpSms(config.SMS_URL, config.SMS_TOKEN) : fileSms(config.MAIL_DIR, log);
}
