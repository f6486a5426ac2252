import { describe, expect, it } from 'vitest';
import {
  LOCALES,
  localeOf,
  messages,
  parseAcceptLanguage,
  pickLocale,
  t,
  tp,
  type MessageKey,
} from '../../src/shared/i18n/messages.ts';

const keys = Object.keys(messages.en) as MessageKey[];
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the catalogue', () => {
  it.each(LOCALES)('%s has every key, none empty, with the same placeholders as English', (locale) => {
    expect(Object.keys(messages[locale]).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const text = messages[locale][key];
      expect(text.trim(), key).not.toBe('');
      expect(text, key).toBe(text.trim());
      expect(placeholders(text), key).toEqual(placeholders(messages.en[key]));
    }
  });

  it.each(['pt', 'es'] as const)('%s is translated, not English copied', (locale) => {
    const same = keys.filter((k) => messages[locale][k] === messages.en[k] && !/^(lang\.|event\.dates)/.test(k));
    // words that are the same in both languages
    expect(same.sort()).toEqual(
      (locale === 'pt' ? ['form.email', 'nav.menu'] : ['form.no'])
        .concat(['embed.widget']) // "widget" is the word in both
        .concat(locale === 'pt' ? ['sponsors.tier.bronze'] : [])
        .sort(),
    );
  });

  it('has a singular only for a key that exists', () => {
    for (const key of keys.filter((k) => k.endsWith('.one'))) expect(keys).toContain(key.slice(0, -4));
  });

  it('has the navigation, gate and registration words', () => {
    expect(t('pt', 'nav.schedule')).toBe('Programação');
    expect(t('es', 'gate.unlock')).toBe('Desbloquear');
    expect(t('en', 'form.submitting')).toBe('Submitting…');
  });
});

describe('t and tp', () => {
  it.each<[string, MessageKey, Record<string, string | number> | undefined, string]>([
    ['en', 'gate.tooManyTries', { minutes: 5 }, 'Too many tries — try again in 5 minutes.'],
    ['pt', 'gate.tooManyTries', { minutes: 5 }, 'Muitas tentativas — tente novamente em 5 minutos.'],
    ['es', 'sponsors.visit', { name: 'Acme' }, 'Visitar Acme'],
    ['fr', 'nav.home', undefined, 'Home'],
    ['en', 'sponsors.visit', undefined, 'Visit {name}'],
    ['en', 'sponsors.visit', { other: 1 }, 'Visit {name}'],
    ['en', 'sponsors.visit', { name: '{name} & <b>' }, 'Visit {name} & <b>'],
    ['en', 'event.dates', { start: '21', end: '23 December' }, '21 – 23 December'],
  ])('t(%s, %s)', (locale, key, vars, expected) => {
    expect(t(locale, key, vars)).toBe(expected);
  });

  it('falls back to English for a key a catalogue lacks', () => {
    const pt = messages.pt as Record<string, string>;
    const saved = pt['nav.home'];
    delete pt['nav.home'];
    try {
      expect(t('pt', 'nav.home')).toBe('Home');
    } finally {
      pt['nav.home'] = saved;
    }
    expect(t('en', 'no.such.key' as MessageKey)).toBe('no.such.key');
  });

  it.each([
    ['en', 1, '1 session'],
    ['en', 0, '0 sessions'],
    ['en', 2, '2 sessions'],
    ['pt', 1, '1 sessão'],
    ['pt', 0, '0 sessões'],
    ['es', 1, '1 sesión'],
    ['es', 3, '3 sesiones'],
  ])('tp(%s, schedule.sessions, %i)', (locale, count, expected) => {
    expect(tp(locale, 'schedule.sessions', count)).toBe(expected);
  });

  it('counts minutes in the gate message', () => {
    expect(tp('es', 'gate.tooManyTries', 1, { minutes: 1 })).toBe(
      'Demasiados intentos: vuelve a intentarlo dentro de 1 minuto.',
    );
    expect(tp('es', 'gate.tooManyTries', 2, { minutes: 2 })).toContain('2 minutos');
  });
});

describe('parseAcceptLanguage', () => {
  it.each<[string | null | undefined, string[]]>([
    [undefined, []],
    [null, []],
    ['', []],
    ['pt-BR,pt;q=0.9,en;q=0.8', ['pt-BR', 'pt', 'en']],
    ['en;q=0.5, es;q=0.9, pt', ['pt', 'es', 'en']],
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', ['fr-CH', 'fr', 'en', 'de']],
    ['es;q=0, en', ['en']],
    ['en;q=2, es;q=abc, pt;q=0.3', ['pt']],
    ['de, en', ['de', 'en']],
    ['zh-Hant-TW;q=0.8,,  ;q=1, 12;q=1', ['zh-Hant-TW']],
    ['EN-us ; q = 0.7', ['EN-us']],
  ])('%j', (header, expected) => {
    expect(parseAcceptLanguage(header)).toEqual(expected);
  });

  it('bounds its work on huge headers', () => {
    expect(parseAcceptLanguage(Array(10_000).fill('en').join(',')).length).toBeLessThanOrEqual(50);
  });
});

describe('pickLocale', () => {
  it.each<[(string | null | undefined)[], string]>([
    [[], 'en'],
    [[undefined, null, ''], 'en'],
    [['pt'], 'pt'],
    [['PT-br'], 'pt'],
    [['es_419'], 'es'],
    [['fr', 'es'], 'es'],
    [[null, 'es', 'pt'], 'es'],
    [['de', ...parseAcceptLanguage('fr,pt-PT;q=0.9,en;q=0.8')], 'pt'],
    [['de-DE,es;q=0.8,en;q=0.5'], 'es'],
    [['english'], 'en'],
    [['*'], 'en'],
  ])('%j → %s', (candidates, expected) => {
    expect(pickLocale(candidates)).toBe(expected);
  });

  it('maps single tags', () => {
    expect([localeOf('pt-PT'), localeOf('en'), localeOf('x'), localeOf(undefined)]).toEqual(['pt', 'en', null, null]);
  });
});
