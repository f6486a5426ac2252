import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import { operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

// CORS: the public operations the embeddable widgets call answer any origin, without credentials;
// every other operation stays same-origin only (no CORS header at all).

const WIDGET_OPERATIONS = [
  // The program changelog: the site's "changes since your last visit" and any page may read it.
  'activity.changes',
  'activity.find',
  'activity.get',
  // Not a widget's, but for any page: an EventSource following changes (docs/api.md "Following changes").
  'change.subscribe',
  'event.accessCode.challenge',
  'event.checkAccessCode',
  'event.get',
  'form.get',
  'form.respondRegistration',
  // The registration widget's "Already registered? Get your link" (docs/api/magic-links.md).
  'person.requestLink',
  // Web Push without an account: the site's schedule page binds the browser (docs/push.md "Web Push").
  'push.bind',
  'push.dismiss',
  'push.key',
  // The push channels of an event, for an EventSource on any page (docs/push.md).
  'push.subscribe',
  'speaker.find',
  'tag.find',
];

describe('CORS for the widgets', () => {
  let p: TestPlatform;
  let operator: string;
  let eventID: string;
  const ORIGIN = 'https://third-party.example';

  beforeAll(async () => {
    p = await startTestPlatform('sqlite', { RATE_LIMIT_CLIENT: '100000' });
    let companyID: string;
    ({ operator, companyID } = await operatorWithCompany(p, 'Cors Co'));
    eventID = (
      await p.ok('company.event.bind', {
        token: operator,
        query: { companyID },
        body: { name: 'Cors', nickname: 'cors' },
      })
    )[0].eventID;
    await p.ok('event.edit', { token: operator, query: { eventID, key: 'visible' }, body: { value: 1 } });
  });
  afterAll(() => p?.close());

  it('marks exactly the widget operations', () => {
    expect(
      operations
        .filter((op) => op.cors)
        .map((op) => op.name)
        .sort(),
    ).toEqual(WIDGET_OPERATIONS);
    for (const op of operations.filter((o) => o.cors)) expect(op.auth.kind).toBe('public');
  });

  it.each([
    ['rest', `/form/get?eventID=`],
    ['rpc', `/?action=form.get&eventID=`],
  ])('a public read answers any origin (%s style), without credentials', async (_, path) => {
    const res = await fetch(`${p.url}${path}${eventID}`, { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('errors carry the header too, so a widget can read the message and Retry-After', async () => {
    const res = await fetch(`${p.url}/event/get?eventID=abc`, { headers: { origin: ORIGIN } });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect(await res.text()).toBe('400 eventID must be a positive integer');
  });

  it('a cached answer carries the header', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${p.url}/activity/find?eventID=${eventID}`, { headers: { origin: ORIGIN } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('a registration from another origin (form-urlencoded with a charset, as browsers send it)', async () => {
    const res = await fetch(`${p.url}/form/respondRegistration?eventID=${eventID}`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: new URLSearchParams({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@cors.test',
        feedbackContent: '[]',
      }).toString(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers the preflight of a widget operation', async () => {
    const res = await fetch(`${p.url}/event/checkAccessCode?eventID=${eventID}`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it.each([
    ['GET', '/company/get?companyID=1'],
    ['GET', '/event/hotsite/find?eventID=1'],
    ['GET', '/sponsor/find?eventID=1'],
    ['POST', '/person/signIn?username=x'],
    ['GET', '/nope/nothing'],
    ['GET', '/openapi.json'],
  ])('every other operation stays same-origin: %s %s', async (method, path) => {
    const res = await fetch(`${p.url}${path}`, {
      method,
      headers: {
        origin: ORIGIN,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: method === 'POST' ? 'password=x' : undefined,
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('no preflight for the others: OPTIONS is still a 405 without CORS headers', async () => {
    const res = await fetch(`${p.url}/person/signIn?username=x`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
