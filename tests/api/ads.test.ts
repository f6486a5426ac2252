import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, idsOf } from '../helpers/operations.ts';

// Ads (issue 17, spec §4.7 / §2.6, docs/api/ads.md): 'ad.create' and 'ad.edit' (spec), 'ad.remove' and
// 'ad.find' (Podium extensions: what the event's own pages show, weighted), on both stores and styles.

describe.each(STORES)('ads on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let seq = 0;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    w = await world(p);
  });
  afterAll(() => p?.close());

  /** A visible event of company A with one sponsor. */
  async function newEvent() {
    seq++;
    const [{ eventID }] = await p.ok('company.event.bind', {
      token: w.adminA,
      query: { companyID: w.companyA.companyID },
      body: { name: `Ads ${seq}`, nickname: `ads-${seq}` },
    });
    await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
    const [{ sponsorID }] = await p.ok('sponsor.create', {
      token: w.adminA,
      query: { eventID },
      body: { name: `Sponsor ${seq}` },
    });
    return { eventID, sponsorID };
  }

  describe.each(STYLES)('%s style', (style) => {
    const c = () => client(p, style);
    const create = (eventID: string, sponsorID: string, more: Record<string, string> = {}) =>
      c().ok('ad.create', { token: w.adminA, query: { eventID, sponsorID, ...more } });
    const edit = (adID: string, key: string, value: string) =>
      c().call('ad.edit', { token: w.adminA, query: { adID, key }, body: { value } });

    it('creates an ad of a sponsor with the defaults (weight 1, splash, not main), or with every field', async () => {
      const { eventID, sponsorID } = await newEvent();
      const [ad] = await create(eventID, sponsorID);
      expect(ad).toEqual({
        adID: ad.adID,
        eventID,
        sponsorID,
        image: '',
        link: '',
        weight: '1',
        main: '0',
        splash: '1',
      });
      const [full] = await create(eventID, sponsorID, {
        image: 'https://cdn.example.com/ad.png',
        link: 'https://sponsor.example.com/',
        weight: '7',
        main: '1',
        splash: '0',
      });
      expect(full).toMatchObject({ image: 'https://cdn.example.com/ad.png', link: 'https://sponsor.example.com/', weight: '7', main: '1', splash: '0' }); // prettier-ignore
    });

    it.each([
      ['weight', '25', '25'],
      ['weight', '0', '0'],
      ['main', '1', '1'],
      ['splash', '0', '0'],
      ['image', 'https://cdn.example.com/b.png', 'https://cdn.example.com/b.png'],
      ['image', '', ''],
      ['link', 'http://example.com/x?y=1', 'http://example.com/x?y=1'],
      ['link', '', ''],
    ])('edits %s to %j', async (key, value, shown) => {
      const { eventID, sponsorID } = await newEvent();
      const [{ adID }] = await create(eventID, sponsorID, {
        image: 'https://a.example/i.png',
        link: 'https://a.example/',
      });
      const r = await edit(adID, key, value);
      expect(r.status, r.text).toBe(200);
      expect(r.data[0][key]).toBe(shown);
    });

    it('moves an ad to another sponsor of the same event, never to one of another event', async () => {
      const { eventID, sponsorID } = await newEvent();
      const [{ sponsorID: other }] = await p.ok('sponsor.create', { token: w.adminA, query: { eventID }, body: { name: 'Other' } }); // prettier-ignore
      const elsewhere = (await newEvent()).sponsorID;
      const [{ adID }] = await create(eventID, sponsorID);
      expect((await edit(adID, 'sponsorID', other)).data[0].sponsorID).toBe(other);
      expect((await edit(adID, 'sponsorID', elsewhere)).text).toBe('404 sponsor not found');
      expect((await edit(adID, 'sponsorID', '987654')).text).toBe('404 sponsor not found');
    });

    it.each([
      ['weight', '1001', '400 value must be an integer from 0 to 1000 (key weight)'],
      ['weight', '-1', '400 value must be an integer from 0 to 1000 (key weight)'],
      ['weight', '', '400 value cannot be empty (key weight)'],
      ['main', '2', '400 value must be 0 or 1 (key main)'],
      ['splash', 'yes', '400 value must be 0 or 1 (key splash)'],
      ['image', 'javascript:alert(1)', '400 value must be an http or https URL (key image)'],
      ['link', 'ftp://example.com', '400 value must be an http or https URL (key link)'],
      ['adID', '3', /^400 key adID cannot be edited here; keys: sponsorID, image, link, weight, main, splash$/],
    ] as const)('refuses %s = %j', async (key, value, line) => {
      const { eventID, sponsorID } = await newEvent();
      const [{ adID }] = await create(eventID, sponsorID);
      const r = await edit(adID, key, value);
      expect(r.status).toBe(400);
      if (typeof line === 'string') expect(r.text).toBe(line);
      else expect(r.text).toMatch(line);
    });

    it('needs a sponsor of the event: none, an unknown one or another event’s is refused', async () => {
      const { eventID } = await newEvent();
      const elsewhere = (await newEvent()).sponsorID;
      await c().fail('ad.create', { token: w.adminA, query: { eventID } }, 400, /^400 sponsorID cannot be empty$/);
      await c().fail('ad.create', { token: w.adminA, query: { eventID, sponsorID: elsewhere } }, 404, /^404 sponsor not found$/); // prettier-ignore
      await c().fail('ad.create', { token: w.adminA, query: { eventID, sponsorID: '987654' } }, 404, /^404 sponsor not found$/); // prettier-ignore
      await c().fail('ad.create', { token: w.adminA, query: { eventID, sponsorID: 'x' } }, 400, /^400 sponsorID must be a positive integer$/); // prettier-ignore
    });

    it('ad.find answers what to show, heaviest first, with each ad’s share; weight 0 is never shown', async () => {
      const { eventID, sponsorID } = await newEvent();
      const [a] = await create(eventID, sponsorID, { weight: '3', main: '1', splash: '0', image: 'https://x.example/a.png' }); // prettier-ignore
      const [b] = await create(eventID, sponsorID, { weight: '1', main: '1', splash: '1' });
      const [s] = await create(eventID, sponsorID, { weight: '4' });
      await create(eventID, sponsorID, { weight: '0', main: '1' });
      const find = (placement?: string) =>
        c().ok('ad.find', { query: { eventID, ...(placement ? { placement } : {}) } });
      const main = await find('main');
      expect(main.map((r) => [r.adID, r.share])).toEqual([
        [a.adID, '75.00'],
        [b.adID, '25.00'],
      ]);
      expect(main[0]).toMatchObject({ sponsorName: `Sponsor ${seq}`, image: 'https://x.example/a.png', main: '1' });
      expect((await find('splash')).map((r) => [r.adID, r.share])).toEqual([
        [s.adID, '80.00'],
        [b.adID, '20.00'],
      ]);
      expect(idsOf(await find(), 'adID')).toEqual([s.adID, a.adID, b.adID]);
      expect((await find()).map((r) => r.share)).toEqual(['50.00', '37.50', '12.50']);
      await c().fail('ad.find', { query: { eventID, placement: 'popup' } }, 400, /^400 placement must be main or splash$/); // prettier-ignore
      // An edit shows at once, cache or not.
      await edit(a.adID, 'weight', '0');
      expect(idsOf(await find('main'), 'adID')).toEqual([b.adID]);
    });

    it('ad.find of an event the public may not read answers as for any of its pages', async () => {
      const { eventID, sponsorID } = await newEvent();
      await create(eventID, sponsorID, { main: '1' });
      await p.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 0 } });
      await c().fail('ad.find', { query: { eventID } }, 404, /^404 event not found$/);
      await c().fail('ad.find', { token: w.adminB, query: { eventID } }, 404, /^404 event not found$/);
      expect(await c().ok('ad.find', { token: w.adminA, query: { eventID } })).toHaveLength(1);
      await c().fail('ad.find', { query: { eventID: '987654' } }, 404, /^404 event not found$/);
    });

    it("another company's admin is answered as for a missing ad; attendees and staff may not write", async () => {
      const eventID = w.eventA.eventID;
      const [{ sponsorID }] = await p.ok('sponsor.create', { token: w.adminA, query: { eventID }, body: { name: 'A sponsor' } }); // prettier-ignore
      const [{ adID }] = await create(eventID, sponsorID);
      const editing = { query: { adID, key: 'weight' }, body: { value: '2' } };
      await c().fail('ad.edit', { token: w.adminB, ...editing }, 404, /^404 ad not found$/);
      await c().fail('ad.edit', { token: w.adminB, query: { adID: '987654', key: 'weight' }, body: { value: '2' } }, 404, /^404 ad not found$/); // prettier-ignore
      await c().fail('ad.remove', { token: w.adminB, query: { adID } }, 404, /^404 ad not found$/);
      await c().fail('ad.create', { token: w.adminB, query: { eventID, sponsorID } }, 404, /^404 event not found$/);
      for (const token of [w.attendee, w.staff, w.eventAdminEventScope]) {
        await c().fail('ad.edit', { token, ...editing }, 403);
        await c().fail('ad.remove', { token, query: { adID } }, 403);
        await c().fail('ad.create', { token, query: { eventID, sponsorID } }, 403);
      }
      // Company B's admin cannot hang an ad of A's sponsor in B's event either.
      await c().fail('ad.create', { token: w.adminB, query: { eventID: w.eventB.eventID, sponsorID } }, 404, /^404 sponsor not found$/); // prettier-ignore
    });

    it('removes an ad, and removing its sponsor removes its ads', async () => {
      const { eventID, sponsorID } = await newEvent();
      const [one] = await create(eventID, sponsorID);
      const [two] = await create(eventID, sponsorID);
      expect((await c().ok('ad.remove', { token: w.adminA, query: { adID: one.adID } }))[0]).toEqual(one);
      await c().fail('ad.remove', { token: w.adminA, query: { adID: one.adID } }, 404, /^404 ad not found$/);
      expect(idsOf(await c().ok('ad.find', { query: { eventID } }), 'adID')).toEqual([two.adID]);
      await p.ok('sponsor.remove', { token: w.adminA, query: { sponsorID } });
      expect(await c().ok('ad.find', { query: { eventID } })).toEqual([]);
      await c().fail('ad.edit', { token: w.adminA, query: { adID: two.adID, key: 'weight' }, body: { value: '2' } }, 404, /^404 ad not found$/); // prettier-ignore
    });
  });

  it('every write records its change in the change log', async () => {
    const { eventID, sponsorID } = await newEvent();
    const [{ adID }] = await p.ok('ad.create', { token: w.adminA, query: { eventID, sponsorID } });
    await p.ok('ad.edit', { token: w.adminA, query: { adID, key: 'main' }, body: { value: '1' } });
    await p.ok('ad.remove', { token: w.adminA, query: { adID } });
    const changes = await p.db
      .selectFrom('change')
      .select(['operation', 'objectID'])
      .where('eventID', '=', Number(eventID))
      .where('operation', 'like', 'ad.%')
      .orderBy('changeID')
      .execute();
    expect(changes.map((x) => [x.operation, Number(x.objectID)])).toEqual([
      ['ad.create', Number(adID)],
      ['ad.edit', Number(adID)],
      ['ad.remove', Number(adID)],
    ]);
  });
});
