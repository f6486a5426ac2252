// Organizer HTML (hotsite text, speaker descriptions, sponsor bios, event descriptions) is sanitized on
// write: a corpus of XSS payloads must leave nothing executable, checked by an independent strict
// reading of the output (not by the sanitizer's own parser); legitimate content must survive intact.
// Directly on sanitizeOrganizerHtml, and through the API on both stores and in both call styles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeOrganizerHtml } from '../../src/platform/resources/html.ts';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { STYLES, client, type Client } from '../helpers/operations.ts';

/** The allowlist, written out again here so a change to the sanitizer's list must be deliberate. */
const TAGS = new Set(
  `p br hr h2 h3 h4 h5 h6 strong b em i u s small sub sup blockquote code pre ul ol li dl dt dd a img figure
  figcaption table thead tbody tr th td caption span div`.split(/\s+/),
);
const ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href', 'title', 'rel', 'target']),
  img: new Set(['src', 'alt', 'width', 'height', 'loading']),
  th: new Set(['colspan', 'rowspan', 'scope']),
  td: new Set(['colspan', 'rowspan']),
};

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', nbsp: '\u00a0',
  sol: '/', lpar: '(', rpar: ')', period: '.', excl: '!',
}; // prettier-ignore

/** Character references as a browser reads them in an attribute (with or without the semicolon). */
function decode(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const n = ref[1].toLowerCase() === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '\ufffd';
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** What a browser's URL parser follows: C0 controls and spaces trimmed, tabs and newlines removed. */
// eslint-disable-next-line no-control-regex
const followed = (url: string) => url.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
const SAFE_HREF = /^(?:https?:\/\/|mailto:|tel:|#)/i;
const SAFE_SRC = /^https?:\/\//i;

// A tag as HTML tokenizes it: name, then attributes quoted either way or unquoted.
const TAG = /^<(\/?)([a-zA-Z][^\s/>]*)((?:[\s/]*[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)[\s/]*>/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

/**
 * Everything in `html` that could run or load code: a tag outside the allowlist, an attribute outside
 * the tag's list (on* above all), a link other than http/https/mailto/tel/#anchor, an image other than
 * http/https, or a `<` that does not open a well-formed tag (comments, CDATA, half tags). Empty: safe.
 */
function dangers(html: string): string[] {
  const found: string[] = [];
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
    const m = TAG.exec(html.slice(i));
    if (!m) {
      found.push(`markup that is not a plain tag: ${html.slice(i, i + 40)}`);
      continue;
    }
    const [whole, closing, rawName, attributes] = m;
    const name = rawName.toLowerCase();
    if (!TAGS.has(name)) found.push(`tag <${name}>`);
    if (closing && attributes.trim() !== '') found.push(`attributes on </${name}>`);
    for (const [, rawAttr, rawValue = ''] of attributes.matchAll(ATTRIBUTE)) {
      const attr = rawAttr.toLowerCase();
      const value = decode(rawValue.replace(/^["']|["']$/g, ''));
      if (attr.startsWith('on')) found.push(`event handler ${attr}`);
      else if (!ATTRIBUTES[name]?.has(attr)) found.push(`attribute ${name}.${attr}`);
      if (attr === 'href' && !SAFE_HREF.test(followed(value))) found.push(`link ${JSON.stringify(value)}`);
      if (attr === 'src' && !SAFE_SRC.test(followed(value))) found.push(`image ${JSON.stringify(value)}`);
    }
    i += whole.length - 1;
  }
  return found;
}

/** [label, payload]: the classic XSS vectors, obfuscated forms and mutation-XSS openings. */
const PAYLOADS: [string, string][] = [
  ['script', '<script>alert(1)</script>'],
  ['script, upper case with src', '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>'],
  ['script split by a nested script', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
  ['doubled brackets', '<<script>script>alert(1)<</script>/script>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['img with https src and onerror', '<img src="https://cdn.example.com/a.png" onerror="alert(1)">'],
  ['img javascript src, mixed case', "<IMG SRC=JaVaScRiPt:alert('XSS')>"],
  ['img data: src', '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">'],
  ['img srcset', '<img src="https://cdn.example.com/a.png" srcset="javascript:alert(1) 1x">'],
  ['img unclosed attribute', '<img src="https://cdn.example.com/a.png" onerror="alert(1)"//'],
  ['body onload', '<body onload=alert(1)>'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['svg slash onload', '<svg/onload=alert(1)>'],
  ['svg script', '<svg><script>alert(1)</script></svg>'],
  ['svg xlink:href', '<svg><a xlink:href="javascript:alert(1)"><text x="0" y="20">x</text></a></svg>'],
  ['svg animate', '<svg><animate onbegin=alert(1) attributeName=x dur=1s>'],
  ['math mglyph style mXSS', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['math href', '<math href="javascript:alert(1)">click</math>'],
  ['math maction', '<math><maction actiontype="statusline#" xlink:href="javascript:alert(1)">x</maction></math>'],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>'],
  ['javascript: mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['javascript: leading spaces', '<a href="   javascript:alert(1)">x</a>'],
  ['javascript: tab entity', '<a href="java&#x09;script:alert(1)">x</a>'],
  ['javascript: newline entity', '<a href="jav&#x0A;ascript:alert(1)">x</a>'],
  ['javascript: decimal entities', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'],
  ['javascript: padded entities without ;', '<a href="&#0000106&#0000097vascript:alert(1)">x</a>'],
  ['javascript: named colon entity', '<a href="javascript&colon;alert(1)">x</a>'],
  ['javascript: hex entity and &colon;', '<a href="&#x6A;avascript&colon;alert(1)">x</a>'],
  ['javascript: raw tab and newline', '<a href="java\tscr\nipt:alert(1)">x</a>'],
  ['javascript: control characters', '<a href="\u0001java\u0008script:alert(1)">x</a>'],
  ['javascript: non-breaking space', '<a href="\u00a0javascript:alert(1)">x</a>'],
  ['javascript: unquoted', '<a href=javascript:alert(1)>x</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>'],
  ['vbscript: upper case entity', '<a href="VBScript&#58;msgbox(1)">x</a>'],
  ['data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['data: link with spaces', '<a href=" data:text/html,<script>alert(1)</script>">x</a>'],
  ['protocol-relative link', '<a href="//evil.example/">x</a>'],
  ['backslash-relative link', '<a href="\\\\evil.example/">x</a>'],
  ['https with backslashes', '<a href="https:\\\\evil.example/">x</a>'],
  ['relative link', '<a href="evil.example/page">x</a>'],
  ['link onclick', '<a href="https://ok.example/" onclick="alert(1)" onmouseover="alert(2)">ok</a>'],
  ['target _top', '<a href="https://ok.example/" target="_top">ok</a>'],
  ['rel opener', '<a href="https://ok.example/" target="_blank" rel="opener">ok</a>'],
  ['iframe', '<iframe src="https://evil.example/"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['iframe javascript', '<iframe src="javascript:alert(1)"></iframe>'],
  ['style element', '<style>body{background:url(javascript:alert(1))}</style>'],
  ['style import', "<style>@import 'https://evil.example/x.css';</style><p>after</p>"],
  ['style attribute expression', '<p style="background:expression(alert(1))">x</p>'],
  ['style attribute url', '<div style="background-image:url(javascript:alert(1))">x</div>'],
  ['link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
  ['object', '<object data="javascript:alert(1)"></object>'],
  ['object with param', '<object type="text/html"><param name="src" value="javascript:alert(1)"></object>'],
  ['embed', '<embed src="javascript:alert(1)">'],
  ['applet', '<applet code="Evil.class"></applet>'],
  ['base', '<base href="https://evil.example/">'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['meta set-cookie', '<meta http-equiv="Set-Cookie" content="a=b">'],
  ['form action', '<form action="javascript:alert(1)"><button>go</button></form>'],
  ['button formaction', '<button formaction="javascript:alert(1)">x</button>'],
  ['input autofocus onfocus', '<input onfocus=alert(1) autofocus>'],
  ['isindex', '<isindex action="javascript:alert(1)" type=image>'],
  ['details ontoggle', '<details open ontoggle=alert(1)>'],
  ['video source onerror', '<video><source onerror="alert(1)"></video>'],
  ['audio onerror', '<audio src=x onerror=alert(1)>'],
  ['marquee onstart', '<marquee onstart=alert(1)>x</marquee>'],
  ['frameset onload', '<frameset onload=alert(1)>'],
  ['table background', '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>'],
  ['td background', '<table><tr><td background="javascript:alert(1)">x</td></tr></table>'],
  ['template', '<p>a</p><template><img src=x onerror=alert(1)></template>'],
  ['noscript title mXSS', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>'],
  ['noscript link title mXSS', '<noscript><a title="</noscript><img src=x onerror=alert(1)>">x</a></noscript>'],
  ['xmp mXSS', '<xmp><a title="</xmp><img src=x onerror=alert(1)>">x</a></xmp>'],
  ['noembed mXSS', '<noembed><a title="</noembed><img src=x onerror=alert(1)>">x</a></noembed>'],
  ['textarea mXSS', '<textarea><img src=x onerror=alert(1)></textarea>'],
  ['select option', '<select><option><img src=x onerror=alert(1)></option></select>'],
  ['title element', '<title><img src=x onerror=alert(1)></title>'],
  ['comment', '<!--<img src=x onerror=alert(1)>-->'],
  ['comment that closes early', '<!-- --!><img src=x onerror=alert(1)> -->'],
  ['conditional comment', '<!--[if IE]><script>alert(1)</script><![endif]-->'],
  ['CDATA', '<![CDATA[<img src=x onerror=alert(1)>]]>'],
  ['processing instruction', '<?xml-stylesheet href="javascript:alert(1)"?><p>x</p>'],
  ['attribute breakout', '"><script>alert(1)</script>'],
  ['attribute breakout in title', '<a title=\'"><script>alert(1)</script>\' href="https://ok.example/">x</a>'],
  ['DOM clobbering id and name', '<div id="location" name="cookie" class="x">x</div>'],
  ['img unquoted src with slash', '<img src=https://cdn.example.com/a.png/onerror=alert(1)>'],
  ['nested lists mXSS', '<ul><li><ol><li><a href="javascript:alert(1)">x</a></li></ol></li></ul>'],
  ['math style in table', '<table><math><style><img src=x onerror=alert(1)></style></math></table>'],
  ['svg foreignObject', '<svg><foreignObject><iframe srcdoc="<script>alert(1)</script>"></iframe></foreignObject></svg>'],
]; // prettier-ignore

/** Legitimate organizer content and what must be stored for it. */
const LEGITIMATE: [string, string, string][] = [
  ['headings and paragraphs', '<h2>Welcome</h2><h3>Day one</h3><p>Hello <strong>world</strong>, <em>welcome</em>.</p>', '<h2>Welcome</h2><h3>Day one</h3><p>Hello <strong>world</strong>, <em>welcome</em>.</p>'],
  ['links of every allowed kind', '<p><a href="https://example.com/venue" title="Venue">venue</a> <a href="http://example.com/">http</a> <a href="mailto:info@example.com">mail</a> <a href="tel:+351210000000">call</a> <a href="#schedule">schedule</a></p>', '<p><a href="https://example.com/venue" title="Venue">venue</a> <a href="http://example.com/">http</a> <a href="mailto:info@example.com">mail</a> <a href="tel:+351210000000">call</a> <a href="#schedule">schedule</a></p>'],
  ['a new-tab link gets noopener', '<a href="https://example.com/" target="_blank">new tab</a>', '<a href="https://example.com/" target="_blank" rel="noopener noreferrer">new tab</a>'],
  ['lists', '<ul><li>One</li><li><b>Two</b></li></ul><ol><li>First</li></ol>', '<ul><li>One</li><li><b>Two</b></li></ul><ol><li>First</li></ol>'],
  ['images with https src', '<figure><img src="https://cdn.example.com/hall.png" alt="Hall" width="640" height="480" loading="lazy"><figcaption>Hall</figcaption></figure>', '<figure><img src="https://cdn.example.com/hall.png" alt="Hall" width="640" height="480" loading="lazy" /><figcaption>Hall</figcaption></figure>'],
  ['faq as a definition list', '<dl><dt>Is there parking?</dt><dd>Yes.</dd><dt>Food?</dt><dd>Lunch is included.</dd></dl>', '<dl><dt>Is there parking?</dt><dd>Yes.</dd><dt>Food?</dt><dd>Lunch is included.</dd></dl>'],
  ['tables', '<table><caption>Prices</caption><thead><tr><th scope="col">Ticket</th></tr></thead><tbody><tr><td colspan="2">10 €</td></tr></tbody></table>', '<table><caption>Prices</caption><thead><tr><th scope="col">Ticket</th></tr></thead><tbody><tr><td colspan="2">10 €</td></tr></tbody></table>'],
  ['quotes, code, breaks', '<blockquote>Great</blockquote><pre><code>npm i</code></pre><p>a<br>b</p><hr>', '<blockquote>Great</blockquote><pre><code>npm i</code></pre><p>a<br />b</p><hr />'],
  ['text that looks like markup stays text', '<p>1 &lt; 2 &amp; "quotes" &gt; 0</p>', '<p>1 &lt; 2 &amp; "quotes" &gt; 0</p>'],
  ['plain text', 'Just text, no tags.', 'Just text, no tags.'],
  ['unicode', '<p>Olá, 世界 🎉</p>', '<p>Olá, 世界 🎉</p>'],
]; // prettier-ignore

describe('sanitizeOrganizerHtml', () => {
  it('has a corpus of at least 40 payloads', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(40);
  });

  it('the strict reading finds what it must (so a pass below means something)', () => {
    expect(dangers('<script>x</script>')).toContain('tag <script>');
    expect(dangers('<img src="https://a.example/x.png" onerror=x>')).toContain('event handler onerror');
    expect(dangers('<a href="java&#x09;script:x">')).toEqual(['link "java\\tscript:x"']);
    expect(dangers('<a href="//evil.example/">')).toEqual(['link "//evil.example/"']);
    expect(dangers('<img src="data:x">')).toEqual(['image "data:x"']);
    expect(dangers('<p style="x">')).toEqual(['attribute p.style']);
    expect(dangers('<!-- x -->')).toHaveLength(1);
    expect(dangers('<a href="https://a.example/">x</a><h2>t</h2>')).toEqual([]);
  });

  it.each(PAYLOADS)('%s: nothing executable survives', (_label, payload) => {
    const out = sanitizeOrganizerHtml(payload);
    expect(dangers(out), out).toEqual([]);
    expect(out).not.toMatch(/<\s*\/?\s*(script|iframe|style|object|embed|svg|math|base|meta|form|link)\b/i);
    expect(out).not.toMatch(/\son[a-z]+\s*=/i);
    // Stable: cleaning the output again changes nothing (no mutation on a second parse).
    expect(sanitizeOrganizerHtml(out)).toBe(out);
  });

  it.each(LEGITIMATE)('%s: kept intact', (_label, input, expected) => {
    const out = sanitizeOrganizerHtml(input);
    expect(out).toBe(expected);
    expect(dangers(out)).toEqual([]);
  });

  it('keeps the safe part of a mixed payload', () => {
    expect(
      sanitizeOrganizerHtml('<p onclick="x()">Hi <a href="javascript:alert(1)">bad</a> <a href="https://ok.example/">ok</a></p>'),
    ).toBe('<p>Hi <a>bad</a> <a href="https://ok.example/">ok</a></p>');
    expect(sanitizeOrganizerHtml('<h2>T</h2><script>alert(1)</script><p>after</p>')).toBe('<h2>T</h2><p>after</p>');
    expect(sanitizeOrganizerHtml('<a href=" https://ok.example/ ">x</a>')).toBe('<a href="https://ok.example/">x</a>');
  }); // prettier-ignore
});

describe.each(STORES)('sanitized on write through the API on %s', (kind) => {
  describe.each(STYLES)('%s style', (style) => {
    let p: TestPlatform;
    let w: World;
    let c: Client;
    let eventID: string;
    beforeAll(async () => {
      p = await startTestPlatform(kind);
      w = await world(p);
      c = client(p, style);
      // An event of its own: the corpus nearly fills the 100 sections an event may have.
      eventID = (
        await c.ok('company.event.bind', {
          token: w.adminA,
          query: { companyID: w.companyA.companyID },
          body: { name: 'Corpus', nickname: 'corpus' },
        })
      )[0].eventID;
      await c.ok('event.edit', { token: w.adminA, query: { eventID, key: 'visible' }, body: { value: 1 } });
    });
    afterAll(() => p?.close());

    it('hotsite sections: every payload is stored and read back harmless, as the function cleans it', async () => {
      const made = new Map<string, string>();
      for (const [label, payload] of PAYLOADS) {
        const [row] = await c.ok('event.hotsite.create', {
          token: w.adminA,
          query: { eventID, section: 'text' },
          body: { position: 0, name: label, text: payload },
        });
        made.set(row.sectionID, payload);
      }
      const read = await c.ok('event.hotsite.find', { query: { eventID, limit: 100 } });
      expect(read).toHaveLength(PAYLOADS.length);
      for (const row of read) {
        expect(dangers(row.text), row.name).toEqual([]);
        expect(row.text, row.name).toBe(sanitizeOrganizerHtml(made.get(row.sectionID)!));
      }
      // Editing goes through the same cleaning.
      const sectionID = read[0].sectionID;
      for (const [label, payload] of PAYLOADS.slice(0, 10)) {
        const [row] = await c.ok('event.hotsite.edit', {
          token: w.adminA,
          query: { sectionID, key: 'text' },
          body: { value: payload },
        });
        expect(dangers(row.text), label).toEqual([]);
      }
    });

    it('legitimate section text, speaker descriptions and sponsor bios are kept intact', async () => {
      for (const [label, input, expected] of LEGITIMATE) {
        const [section] = await c.ok('event.hotsite.create', {
          token: w.adminA,
          query: { eventID: w.eventA.eventID, section: 'faq' },
          body: { position: 1, text: input },
        });
        expect(section.text, label).toBe(expected);
        const [speaker] = await c.ok('speaker.create', {
          token: w.adminA,
          query: { eventID: w.eventA.eventID },
          body: { name: label, description: input },
        });
        expect((await c.ok('speaker.get', { query: { speakerID: speaker.speakerID } }))[0].description).toBe(expected);
        const [sponsor] = await c.ok('sponsor.create', {
          token: w.adminA,
          query: { eventID },
          body: { name: label, bio: input },
        });
        expect((await c.ok('sponsor.get', { query: { sponsorID: sponsor.sponsorID } }))[0].bio).toBe(expected);
      }
    });

    it('speaker descriptions and sponsor bios are cleaned on create and edit', async () => {
      const [speaker] = await c.ok('speaker.create', { token: w.adminA, query: { eventID }, body: { name: 'S' } });
      const [sponsor] = await c.ok('sponsor.create', { token: w.adminA, query: { eventID }, body: { name: 'S' } });
      for (const [label, payload] of PAYLOADS.filter((_, i) => i % 3 === 0)) {
        const [s] = await c.ok('speaker.edit', {
          token: w.adminA,
          query: { speakerID: speaker.speakerID, key: 'description' },
          body: { value: payload },
        });
        expect(dangers(s.description), label).toEqual([]);
        const [b] = await c.ok('sponsor.edit', {
          token: w.adminA,
          query: { sponsorID: sponsor.sponsorID, key: 'bio' },
          body: { value: payload },
        });
        expect(dangers(b.bio), label).toEqual([]);
        const [created] = await c.ok('speaker.create', {
          token: w.adminA,
          query: { eventID },
          body: { name: label, description: payload },
        });
        expect(dangers(created.description), label).toEqual([]);
      }
    });
  });
});
