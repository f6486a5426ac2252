// The embed configurator's snippet (src/shared/embed.ts): what a form (or an address) holds → the HTML
// an organizer pastes. The browser test (tests/site/embed-browser.test.ts) drives the page itself.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  choiceFrom,
  sendsRegistrations,
  SITE_BASE,
  snippetOf,
  validOfKind,
  type EmbedSite,
} from '../../src/shared/embed.ts';

const site: EmbedSite = {
  siteUrl: 'https://events.example.com',
  api: 'https://api.example.com',
  event: 'acme/devconf',
  eventUrl: 'https://events.example.com/acme/devconf',
  mainColor: '#1d4ed8',
  backgroundColor: '#ffffff',
  widget: 'registration',
};
const loader = (name: string) => `<script type="module" src="https://events.example.com/widgets/${name}"></script>\n`;
const common = 'api="https://api.example.com" event="acme/devconf"';
const links = 'site="https://events.example.com/acme/devconf"';

describe('the embed snippet', () => {
  it.each([
    [
      'nothing sent: the default widget',
      '',
      `${loader('podium-registration.js')}<podium-registration ${common}></podium-registration>\n`,
    ],
    [
      'registration: booleans bare, defaults left out, text trimmed and escaped',
      'widget=registration&registration:rsvp=1&registration:invite-param=invite&registration:first-name= A"<b> ',
      `${loader('podium-registration.js')}<podium-registration ${common} rsvp first-name="A&quot;&lt;b>"></podium-registration>\n`,
    ],
    [
      'agenda: lists joined, in the order of the widget, language first',
      'widget=agenda&agenda:tags=3&agenda:tags=5&agenda:view=grid&agenda:tz=event&locale=es&agenda:q=&agenda:mine=1',
      `${loader('podium-agenda.js')}<podium-agenda ${common} locale="es" view="grid" tags="3,5" mine ${links}></podium-agenda>\n`,
    ],
    [
      "another widget's settings are not this one's",
      'widget=agenda&registration:rsvp=1&gate:inside=registration',
      `${loader('podium-agenda.js')}<podium-agenda ${common} ${links}></podium-agenda>\n`,
    ],
    [
      'agenda: its settings sent without the box of the links: none',
      'widget=agenda&agenda:sent=1&agenda:view=list',
      `${loader('podium-agenda.js')}<podium-agenda ${common}></podium-agenda>\n`,
    ],
    [
      'gate: the program inside by default, podium.js for two kinds',
      'widget=gate',
      `${loader('podium.js')}<podium-access-gate ${common}>\n  <podium-agenda ${common}></podium-agenda>\n</podium-access-gate>\n`,
    ],
    [
      'gate: its settings sent with nothing ticked hold nothing',
      'widget=gate&gate:sent=1',
      `${loader('podium-access-gate.js')}<podium-access-gate ${common}></podium-access-gate>\n`,
    ],
    [
      'gate: what it holds in the form order, with the language',
      'widget=gate&gate:sent=1&gate:inside=registration&gate:inside=agenda&gate:inside=gate&locale=pt',
      `${loader('podium.js')}<podium-access-gate ${common} locale="pt">\n  <podium-agenda ${common} locale="pt"></podium-agenda>\n  <podium-registration ${common} locale="pt"></podium-registration>\n</podium-access-gate>\n`,
    ],
    [
      'unknown widget and language: the defaults',
      'widget=iframe&locale=xx',
      `${loader('podium-registration.js')}<podium-registration ${common}></podium-registration>\n`,
    ],
    [
      "colours: only the properties that differ from the widgets' own",
      'main-color=%23ffcc00',
      `${loader('podium-registration.js')}<style>\n  podium-registration {\n    --podium-color-primary: #ffcc00;\n    --podium-color-on-primary: #000000;\n    --podium-color-primary-text: #816a0e;\n    --podium-color-focus: #a3850a;\n  }\n</style>\n<podium-registration ${common}></podium-registration>\n`,
    ],
    [
      "colours: not a colour, the event's",
      'main-color=red;}&background-color=url(x)',
      `${loader('podium-registration.js')}<podium-registration ${common}></podium-registration>\n`,
    ],
  ])('%s', (_, query, snippet) => {
    expect(snippetOf(choiceFrom(new URLSearchParams(query), site), site)).toBe(snippet);
  });

  it.each([
    ['ada@example', false],
    ['ada@@example.com', false],
    ['ada lovelace@example.com', false],
    ['ada@example..com', false],
    ['adá@example.com', false],
    ['@example.com', false],
    ['ada@example.com', true],
    ["o'brien+events@mail.example.co.uk", true],
  ])('a prefill e-mail %s goes into the snippet: %s', (email, valid) => {
    const choice = choiceFrom(new URLSearchParams({ widget: 'registration', 'registration:email': email }), site);
    expect(snippetOf(choice, site).includes('email=')).toBe(valid);
    expect(choice.refused).toEqual(valid ? [] : [['email', email]]);
  });

  // The agenda's own reading of each (agenda.ts): what it would ignore or refuse stays out of the snippet.
  it.each([
    ['agenda:view=grid', [['view', 'grid']], []],
    ['agenda:view=now', [], [['view', 'now']]],
    ['agenda:view=GRID', [], [['view', 'GRID']]],
    ['agenda:tz=local', [['tz', 'local']], []],
    ['agenda:tz=utc', [], [['tz', 'utc']]],
    ['agenda:days=2037-12-22&agenda:days=2037-12-23', [['days', '2037-12-22,2037-12-23']], []],
    ['agenda:days=2037-12-22,22/12/2037', [['days', '2037-12-22']], [['days', '22/12/2037']]],
    ['agenda:days=2037-02-30', [], [['days', '2037-02-30']]],
    ['agenda:tags=3,5', [['tags', '3,5']], []],
    ['agenda:tags=3&agenda:tags=0&agenda:tags=x&agenda:tags=-2', [['tags', '3']], [['tags', '0,x,-2']]],
    ['agenda:rooms=Main Hall,Room 2', [['rooms', 'Main Hall,Room 2']], []],
    ['agenda:site=https://example.com/summit', [['site', 'https://example.com/summit']], []],
    ['agenda:site=/summit', [['site', '/summit']], []],
    ['agenda:site=javascript:alert(1)', [], [['site', 'javascript:alert(1)']]],
    ['agenda:site=example.com', [], [['site', 'example.com']]],
    ['agenda:q=keynote', [['q', 'keynote']], []],
  ])('agenda %s: attributes %j, refused %j', (query, attributes, refused) => {
    const choice = choiceFrom(new URLSearchParams(`widget=agenda&agenda:sent=1&${query}`), site);
    expect(choice.attributes).toEqual(attributes);
    expect(choice.refused).toEqual(refused);
  });

  it("checks `site` with the agenda's own rule", () => {
    const agenda = readFileSync(new URL('../../widgets/src/components/agenda/agenda.ts', import.meta.url), 'utf8');
    expect(agenda).toContain(`/${SITE_BASE.source}/${SITE_BASE.flags}.test(this.site)`);
  });

  // An attribute the browser found on the element, checked by its declared type (Lit's converters).
  it.each([
    ['number', '4', true],
    ['number', '-2.5', true],
    ['number', '1e3', true],
    ['number', 'four', false],
    ['number', '4 seats', false],
    ['number', 'Infinity', false],
    ['text', 'anything at all', true],
  ] as const)('an other attribute of kind %s with %j goes into the snippet: %s', (kind, value, valid) => {
    const choice = choiceFrom(
      new URLSearchParams({ widget: 'registration', 'registration:sent': '1', 'registration:extra': value }),
      site,
      { registration: [{ name: 'extra', kind, valid: validOfKind(kind) }] },
    );
    expect(choice.attributes).toEqual(valid ? [['extra', value]] : []);
    expect(choice.refused).toEqual(valid ? [] : [['extra', value]]);
  });

  it('a dark background derives readable text, surfaces and errors', () => {
    const out = snippetOf(choiceFrom(new URLSearchParams('background-color=%23111111'), site), site);
    expect(out).toContain('--podium-color-bg: #111111;');
    expect(out).toMatch(/--podium-color-text: #f\w+;/);
    // The widgets' own red is 2.9:1 on it.
    expect(out).toContain('--podium-color-danger: #ca6c66;');
    // The widget's box is painted with it, as in the preview: the colours are readable on it, not on a
    // white page the snippet may go into.
    expect(out).toMatch(/ {4}background-color: #111111;\n {4}padding: 1rem;\n {2}\}\n<\/style>/);
  });

  it('an attribute the browser found on the element is written by its kind', () => {
    const choice = choiceFrom(new URLSearchParams('widget=agenda&agenda:sent=1&agenda:compact=1&agenda:rows=4'), site, {
      agenda: [
        { name: 'compact', kind: 'boolean' },
        { name: 'rows', kind: 'number' },
      ],
    });
    expect(choice.attributes).toEqual([
      ['compact', true],
      ['rows', '4'],
    ]);
  });
});

describe('whether a choice sends registrations (the preview says a registration from it is real)', () => {
  it.each([
    ['widget=registration', true],
    ['widget=agenda', false],
    ['widget=gate&gate:sent=1&gate:inside=registration', true],
    ['widget=gate&gate:sent=1&gate:inside=agenda', false],
    ['widget=gate', false], // the gate's default holds the program
  ])('%s: %s', (query, expected) => {
    expect(sendsRegistrations(choiceFrom(new URLSearchParams(query), site))).toBe(expected);
  });
});
