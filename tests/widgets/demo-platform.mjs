/* global setTimeout, clearTimeout, URLSearchParams */
// A real Podium platform for the widget tests: `podium start` (API only) on a free port over a fresh
// SQLite file, with the demo loaded (public event `demo/summit`, private event `demo/partners`), plus an
// organizer's token for setting up fixtures and checking results.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the platform; resolves once it listens. `env` overrides the defaults (RATE_LIMIT_CLIENT is high
 * so a test suite is not throttled).
 */
export async function startDemoPlatform(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'podium-widgets-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'bin', 'podium.js'), 'start'], {
    cwd: root,
    env: {
      ...process.env,
      SITE: '0',
      HOST: '127.0.0.1',
      API_PORT: String(port),
      DATABASE_URL: `file:${join(dir, 'podium.db')}`,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CLIENT: '100000',
      RATE_LIMIT_TOKEN: '100000',
      SEED_DEMO: '1',
      // The demo's dates are fixed, so the pages' dates can be asserted whatever day the tests run.
      DEMO_START: '2037-12-21',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const started = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`platform did not start:\n${out}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`platform exited (${code}):\n${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        privateEventID: Number(/private event (\d+)/.exec(out)?.[1]),
        accessCode: /access code (\d+)/.exec(out)?.[1],
        username: /username (\S+)/.exec(out)?.[1],
        password: /password (\S+)/.exec(out)?.[1],
      });
    });
  });
  child.removeAllListeners('exit');

  const signIn = await fetch(`${started.url}/person/signIn?username=${encodeURIComponent(started.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: started.password }),
  });
  const token = (await signIn.json()).data[0].tokenID;

  /** An organizer's call (the company admin of `demo`): { status, text, data }. */
  async function admin(name, query = {}, body) {
    const params = new URLSearchParams(query);
    const res = await fetch(`${started.url}/${name.replaceAll('.', '/')}?${params}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: body ? new URLSearchParams(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, data: res.ok ? JSON.parse(text).data : [] };
  }

  async function stop() {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }

  return { ...started, token, admin, stop };
}

/**
 * An event for the registration tests: visible, public, with a custom field of every type (the
 * telephone one is how the platform's own validation is reached past the browser's), an attendee type
 * and a consent text. Answers { eventID, fields: { type: feedbackID } }.
 */
export async function registrationFixture(platform, nickname = 'widgets-form') {
  const { admin } = platform;
  const company = (await admin('company.get', { namespace: 'demo' })).data[0];
  const event = (await admin('company.event.bind', { companyID: company.companyID }, { name: 'Widget Conf', nickname }))
    .data[0];
  const eventID = event.eventID;
  await admin('event.edit', { eventID, key: 'visible' }, { value: '1' });
  const fields = {};
  const types = [
    ['text', 'Job title', '0', ''],
    ['textarea', 'About you', '0', ''],
    ['select', 'Company size', '1', '1-10\n11-50\nMore than 50'],
    ['multiselect', 'Interests', '0', 'Web\nMobile\nData'],
    ['checkbox', 'Newsletter', '0', ''],
    ['date', 'Arrival', '0', ''],
    ['number', 'Guests', '0', ''],
    ['email', 'Work e-mail', '0', ''],
    ['telephone', 'Phone', '0', ''],
    ['url', 'Website', '0', ''],
  ];
  for (const [type, name, required, options] of types) {
    const r = await admin(
      'feedback.create',
      { eventID },
      {
        name,
        type,
        required,
        ...(options ? { options } : {}),
        description: type === 'url' ? '<p>Your <strong>site</strong></p>' : '',
      },
    );
    if (r.status !== 200) throw new Error(`feedback.create ${type}: ${r.text}`);
    fields[type] = r.data[0].feedbackID;
  }
  await admin('tag.create', { eventID }, { name: 'Student', kind: 'attendee' });
  await admin(
    'form.edit',
    { eventID, key: 'consent' },
    { value: 'I accept the <a href="https://example.com/privacy">privacy policy</a>.' },
  );
  return { eventID: Number(eventID), fields };
}
