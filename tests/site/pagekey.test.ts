// The page cache's key (src/site/pagekey.ts): what a public page depends on, and nothing else of the
// request — other cookies (analytics) must not split the cache into one copy per visitor.
import { describe, expect, it } from 'vitest';
import { pageKeyOfRequest } from '../../src/site/pagekey.ts';

const base = ['events.example.com', '/demo/summit?view=list', undefined, 'pt-PT,pt;q=0.9'] as const;
const keyOf = (host: string | undefined, url: string, cookie: string | undefined, lang: string | undefined) =>
  pageKeyOfRequest(host, url, cookie, lang);

describe('the page key', () => {
  it.each([
    [
      'an analytics cookie',
      ['events.example.com', '/demo/summit?view=list', '_ga=GA1.2.3.4; _gid=x', 'pt-PT,pt;q=0.9'],
    ],
    ['the access grant cookie (private pages are never stored)', [...base.slice(0, 2), 'podium_grant_2=abc', base[3]]],
    ['the Host in capitals, with a port', ['Events.Example.com:443', ...base.slice(1)]],
    ['another Accept-Language of the same best language', [...base.slice(0, 3), 'pt']],
  ] as const)('is the same with %s', (_, args) => {
    expect(keyOf(...(args as Parameters<typeof keyOf>))).toBe(keyOf(...base));
  });

  it.each([
    ['another host', ['other.example.com', ...base.slice(1)]],
    ['another query', ['events.example.com', '/demo/summit?view=grid', ...base.slice(2)]],
    ['a language chosen with the switcher', [...base.slice(0, 2), '_ga=1; podium_lang=en', base[3]]],
    ['another best language', [...base.slice(0, 3), 'en']],
  ] as const)('differs with %s', (_, args) => {
    expect(keyOf(...(args as Parameters<typeof keyOf>))).not.toBe(keyOf(...base));
  });

  it('is none without a valid Host (never a stored page)', () => {
    expect(keyOf(undefined, '/', undefined, undefined)).toBeUndefined();
    expect(keyOf('bad host', '/', undefined, undefined)).toBeUndefined();
  });
});
