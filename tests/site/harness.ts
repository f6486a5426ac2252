// Starts the real `podium start` (platform + site, demo data, fresh SQLite store, free ports) for the
// site's end-to-end tests, and small HTTP helpers that can send any Host header.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../src/site/build.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Podium {
  api: string;
  site: string;
  accessCode: string;
  organizer: { username: string; password: string };
  /** Where the platform writes its e-mails (.eml files): a folder of this start's own. */
  mailDir: string;
  /** The e-mails written so far, oldest first, as RFC 5322 text with quoted-printable bodies decoded. */
  mails(): string[];
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Builds the site if needed, then starts `bin/podium.js start` and waits for both servers. */
export async function startPodium(env: Record<string, string> = {}): Promise<Podium> {
  await ensureBuilt(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'podium-site-test-'));
  const mailDir = env.MAIL_DIR ?? join(dir, 'mail');
  const child = spawn(process.execPath, ['bin/podium.js', 'start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: `file:${join(dir, 'podium.db')}`,
      API_PORT: '0',
      SITE_PORT: '0',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
      // The demo's dates are fixed, so the pages' dates can be asserted whatever day the tests run.
      DEMO_START: '2037-12-21',
      // The tests stand in for a proxy in front of the site: their X-Forwarded-For names the visitor.
      TRUST_PROXY: '127.0.0.1',
      // E-mails (person.recover's links) go to this start's folder, not the repository's ./data/mail.
      MAIL_DIR: mailDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`podium start did not start the site:\n${out}`)), 45_000);
    const check = () => {
      if (/Podium site listening on/.test(out)) {
        clearTimeout(timer);
        resolve();
      } else if (/could not start/.test(out)) {
        clearTimeout(timer);
        reject(new Error(out));
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', (code) => reject(new Error(`podium start exited ${code}:\n${out}`)));
  });
  const api = /Podium API listening on (http:\/\/\S+)/.exec(out)![1];
  const site = /Podium site listening on (http:\/\/\S+)/.exec(out)![1];
  const accessCode = /access code (\d+)/.exec(out)![1];
  const signIn = /username (\S+)\s+password (\S+)/.exec(out)!;
  return {
    api,
    site,
    accessCode,
    organizer: { username: signIn[1], password: signIn[2] },
    mailDir,
    mails: () =>
      existsSync(mailDir)
        ? readdirSync(mailDir)
            .filter((f) => f.endsWith('.eml'))
            .sort()
            .map((f) => readFileSync(join(mailDir, f), 'utf8'))
            .map((m) =>
              m
                .replace(/=\r?\n/g, '')
                .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
            )
        : [],
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      // A job that failed in the real process (not through Vite, as the API's tests run them) fails the
      // file: the address checks failed on every run in `podium start` with every test passing.
      const failed = out.split('\n').filter((line) => line.includes('jobs: attempt failed'));
      if (failed.length > 0) throw new Error(`jobs failed in podium start:\n${failed.slice(0, 3).join('\n')}`);
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with full control of the headers (Host included, which fetch does not allow). */
export function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        // A fragment's marker left in a page (src/site/fragments.ts) is a page missing that fragment.
        if (text.includes('<!--podium:fragment:')) reject(new Error(`${url}: a fragment marker was left in the page`));
        else resolve({ status: res.statusCode!, headers: res.headers, text });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The demo organizer's token (person.signIn). */
export async function organizerToken(p: Podium): Promise<string> {
  const signIn = await fetch(`${p.api}/?action=person.signIn&username=${encodeURIComponent(p.organizer.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: p.organizer.password }),
  });
  return ((await signIn.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
}

/** Signs the demo organizer in and edits one event field through the platform API. */
export async function editEvent(p: Podium, eventID: number, key: string, value: string): Promise<void> {
  const token = await organizerToken(p);
  const res = await fetch(`${p.api}/event/edit?eventID=${eventID}&key=${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    body: new URLSearchParams({ value }),
  });
  if (res.status !== 200) throw new Error(`event.edit ${key}: ${res.status} ${await res.text()}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
