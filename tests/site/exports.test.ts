// The schedule's exports for conference apps over HTTP, against the real `podium start` with the demo:
// /{company}/{event}/schedule.xml and .json validate against the published schemas (tests/helpers/
// frab.ts), hold the whole program, answer a private event only with its grant, are linked from the
// schedule page, and are served at /schedule.xml on the event's own domain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonSchemaErrors, xsdErrors } from '../helpers/frab.ts';
import { editEvent, http, sleep, startPodium, type Podium } from './harness.ts';

let p: Podium;
beforeAll(async () => {
  p = await startPodium();
});
afterAll(async () => {
  await p?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => http(`${p.site}${path}`, { headers });

interface FrabJson {
  schedule: {
    conference: {
      acronym: string;
      title: string;
      daysCount: number;
      days: { date: string; rooms: Record<string, { id: number; url: string; persons: { name: string }[] }[]> }[];
    };
  };
}

describe('schedule exports', () => {
  it('schedule.xml is the whole demo program as frab XML, valid against the XSD', async () => {
    const res = await get('/demo/summit/schedule.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('inline; filename="summit.xml"');
    expect(await xsdErrors(res.text)).toEqual([]);
    expect(res.text.match(/<event id="/g)).toHaveLength(120);
    expect(res.text).toContain('<acronym>summit</acronym>');
    expect(res.text).toContain(`<url>${p.site}/demo/summit/schedule.xml</url>`);
    expect(res.text.match(/<day index="/g)).toHaveLength(3);
  });

  it('schedule.json is the same program in frab JSON, valid against the JSON Schema', async () => {
    const res = await get('/demo/summit/schedule.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const json = JSON.parse(res.text) as FrabJson;
    expect(jsonSchemaErrors(json)).toEqual([]);
    const c = json.schedule.conference;
    expect(c).toMatchObject({ acronym: 'summit', title: 'Podium Summit', daysCount: 3 });
    const events = c.days.flatMap((d) => Object.values(d.rooms).flat());
    expect(events).toHaveLength(120);
    expect(new Set(events.map((e) => e.id)).size).toBe(120);
    expect(events.find((e) => e.id === 1)?.url).toBe(`${p.site}/demo/summit/schedule/1`);
    expect(events.some((e) => e.persons.length > 0)).toBe(true);
    // A public event's export is cached like its pages (ETag, 304).
    const again = await get('/demo/summit/schedule.json', { 'if-none-match': String(res.headers.etag) });
    expect(again.status).toBe(304);
  });

  it.each([
    ['/demo/nothing/schedule.xml', 404, '404 event not found'],
    ['/demo/nothing/schedule.json', 404, '404 event not found'],
    ['/demo/partners/schedule.xml', 403, '403 this event is private: enter its access code on the event page'],
    ['/demo/partners/schedule.json', 403, '403 this event is private: enter its access code on the event page'],
  ])('%s → %i, one line', async (path, status, line) => {
    const res = await get(path);
    expect([res.status, res.text]).toEqual([status, line]);
  });

  it('a private event’s export answers with the visitor’s grant, never cached for others', async () => {
    const unlock = await http(`${p.site}/demo/partners/access`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.77' },
      body: new URLSearchParams({ accessCode: p.accessCode, next: '/demo/partners' }).toString(),
    });
    const cookie = String(unlock.headers['set-cookie'] ?? '').split(';')[0];
    expect(cookie).toMatch(/=/);
    const res = await get('/demo/partners/schedule.json', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(jsonSchemaErrors(JSON.parse(res.text))).toEqual([]);
    expect((await get('/demo/partners/schedule.json')).status).toBe(403);
  });

  it('the schedule page links the exports', async () => {
    const page = await get('/demo/summit/schedule');
    expect(page.text).toContain('<a href="/demo/summit/schedule.xml">XML</a>');
    expect(page.text).toContain('<a href="/demo/summit/schedule.json">JSON</a>');
  });

  it('on the event’s own domain they are /schedule.xml and /schedule.json, with its addresses', async () => {
    await editEvent(p, 1, 'cname', 'exports.example.test');
    const host = { host: 'exports.example.test' };
    let xml = await get('/schedule.xml', host);
    for (let i = 0; i < 40 && !xml.text.includes('https://exports.example.test/schedule/1<'); i++) {
      await sleep(100);
      xml = await get('/schedule.xml', host);
    }
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<url>https://exports.example.test/schedule.xml</url>');
    expect(await xsdErrors(xml.text)).toEqual([]);
    const json = await get('/schedule.json', host);
    expect(jsonSchemaErrors(JSON.parse(json.text))).toEqual([]);
    expect(json.text).toContain('"url": "https://exports.example.test/schedule/1"');
  });
});
