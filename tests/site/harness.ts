// Starts the real `podium start` (platform + site, demo data, fresh SQLite store, free ports) for the
// site's end-to-end tests, and small HTTP helpers that can send any Host header.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../src/site/build.ts';
import { dnsServer, type Zone } from '../helpers/dns.ts';

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
  /** The DNS zone the platform asks (DNS_SERVERS): where editEvent publishes a custom domain's record. */
  zone: Zone;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Builds the site if needed, then starts `bin/podium.js start` and waits for both servers. */
export async function startPodium(env: Record<string, string> = {}): Promise<Podium> {
  await ensureBuilt(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'podium-site-test-'));
  const mailDir = env.MAIL_DIR ?? join(dir, 'mail');
  const zone = await dnsServer();
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
      // Custom domains are checked in DNS before they are served: this start's own zone answers.
      DNS_SERVERS: zone.server,
      JOBS_POLL_MS: '100',
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
    zone,
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
      await zone.close();
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

/**
 * The harness's own calls each come from an address of their own (the tests are the API's trusted
 * proxy too), so they never spend the allowance a test sets low for its visitors.
 */
let harnessCalls = 0;
const asHarness = () => {
  const n = harnessCalls++;
  // 198.18.0.0/15, the benchmarking range: no test's visitors come from it.
  return { 'x-forwarded-for': `198.18.${Math.floor(n / 250) % 250}.${(n % 250) + 1}` };
};

/** The demo organizer's token (person.signIn). */
export async function organizerToken(p: Podium): Promise<string> {
  const signIn = await fetch(`${p.api}/?action=person.signIn&username=${encodeURIComponent(p.organizer.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...asHarness() },
    body: new URLSearchParams({ password: p.organizer.password }),
  });
  return ((await signIn.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
}

/** Signs the demo organizer in and edits one event field through the platform API. */
export async function editEvent(p: Podium, eventID: number, key: string, value: string): Promise<void> {
  const token = await organizerToken(p);
  const edit = async () => {
    const res = await fetch(`${p.api}/event/edit?eventID=${eventID}&key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}`, ...asHarness() }, // prettier-ignore
      body: new URLSearchParams({ value }),
    });
    if (res.status !== 200) throw new Error(`event.edit ${key}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { cnameState: string; cnameDNS: string }[] }).data[0];
  };
  const row = await edit();
  if (key !== 'cname' || row.cnameState !== 'checking') return;
  // The owner publishes the record the answer names once the first check has told it missing, then asks again.
  await untilState(p, token, eventID, value, (state) => state !== 'checking');
  const { name, expected } = JSON.parse(row.cnameDNS) as { name: string; expected: string };
  p.zone.txt.set(name, [expected]);
  await edit();
  await untilState(p, token, eventID, value, (state) => state === 'verified');
  // The site forgets its "unknown domain" answer when the check's change comes by the bus.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const page = await http(`${p.site}/robots.txt`, { headers: { host: value, ...asHarness() } });
    if (page.status !== 404) return;
    if (Date.now() > deadline) throw new Error(`custom domain ${value}: verified, but the site still answers 404`);
    await sleep(50);
  }
}

/** Waits until the event's domain check is in a state `done` takes (docs/api.md "Custom domains"). */
async function untilState(p: Podium, token: string, eventID: number, domain: string, done: (state: string) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${p.api}/event/get?eventID=${eventID}`, { headers: { authorization: `Bearer ${token}`, ...asHarness() } }); // prettier-ignore
    const state = ((await res.json()) as { data: { cnameState: string }[] }).data[0].cnameState;
    if (done(state)) return;
    if (Date.now() > deadline) throw new Error(`custom domain ${domain}: its check is still ${state}`);
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
