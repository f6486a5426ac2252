// The event's main ad on its website (issue 17, docs/api/ads.md): the hotsite's sponsors section shows
// the `main` ad (ad.find placement=main, read through src/client) with rel="sponsored", follows ad
// edits through the page cache, and never shows a splash-only ad. pickAd's weighted draw, unit-tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickAd } from '../../src/site/ads.ts';
import { http, sleep, startPodium, type Podium } from './harness.ts';

describe('pickAd', () => {
  const ads = [
    { id: 'a', weight: '3' },
    { id: 'b', weight: '0' },
    { id: 'c', weight: '1' },
  ];
  it.each([
    [0, 'a'],
    [0.74, 'a'],
    [0.75, 'c'],
    [0.9999, 'c'],
  ])('random %d draws %s, in proportion to the weights (0 never)', (random, id) => {
    expect(pickAd(ads, random)?.id).toBe(id);
  });
  it('draws nothing from no ads, or from ads of weight 0 only', () => {
    expect(pickAd([], 0.5)).toBeUndefined();
    expect(pickAd([{ weight: '0' }], 0.5)).toBeUndefined();
  });
  it('draws each ad about as often as its weight says', () => {
    const seen = { a: 0, c: 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) seen[pickAd(ads)!.id]++;
    expect(seen.a / 4000).toBeGreaterThan(0.7);
    expect(seen.a / 4000).toBeLessThan(0.8);
  });
});

describe('the main ad on the hotsite', () => {
  let p: Podium;
  let token: string;
  beforeAll(async () => {
    p = await startPodium();
    const signIn = await fetch(`${p.api}/?action=person.signIn&username=${encodeURIComponent(p.organizer.username)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: p.organizer.password }),
    });
    token = ((await signIn.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
  });

  const api = async (action: string, query: Record<string, string>, body?: Record<string, string>) => {
    const res = await fetch(`${p.api}/?${new URLSearchParams({ action, ...query })}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: body ? new URLSearchParams(body) : undefined,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${action}: ${text}`);
    return (JSON.parse(text) as { data: Record<string, string>[] }).data;
  };
  /** The hotsite once it shows (or stops showing) `text`, polled with a bound: the page cache follows changes. */
  async function hotsiteWhen(has: boolean, text: string) {
    let page = await http(`${p.site}/demo/summit`);
    for (let i = 0; i < 50 && page.text.includes(text) !== has; i++) {
      await sleep(200);
      page = await http(`${p.site}/demo/summit`);
    }
    return page.text;
  }

  it('shows the main ad in the sponsors section, its link rel="sponsored"; a splash-only ad never', async () => {
    const [sponsor] = await api('sponsor.find', { eventID: '1' });
    await api('ad.create', {
      eventID: '1',
      sponsorID: sponsor.sponsorID,
      image: 'https://cdn.example.com/splash.png',
      link: 'https://splash.example.com/',
    });
    const [ad] = await api('ad.create', {
      eventID: '1',
      sponsorID: sponsor.sponsorID,
      image: 'https://cdn.example.com/main.png',
      link: 'https://sponsor.example.com/offer',
      main: '1',
      splash: '0',
    });
    const html = await hotsiteWhen(true, 'class="sponsor-ad"');
    const start = html.indexOf('>Sponsors</h2>');
    const at = html.indexOf('class="sponsor-ad"');
    expect(start).toBeGreaterThan(0);
    expect(at).toBeGreaterThan(start);
    expect(html.indexOf('class="tier', at)).toBeGreaterThan(at); // above the tiers, inside the section
    const aside = html.slice(at, html.indexOf('</aside>', at));
    expect(aside).toMatch(/<a href="https:\/\/sponsor\.example\.com\/offer" rel="sponsored noopener" target="_blank"/);
    expect(aside).toContain(`<img src="https://cdn.example.com/main.png" alt="${sponsor.name}"`);
    expect(aside).toContain('Sponsored');
    expect(html).not.toContain('splash.example.com');

    // Weight 0: never shown; the page follows the edit.
    await api('ad.edit', { adID: ad.adID, key: 'weight' }, { value: '0' });
    expect(await hotsiteWhen(false, 'class="sponsor-ad"')).not.toContain('sponsor.example.com/offer');
  });
});
