import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTER,
  applyFilter,
  filterFromQuery,
  filterToQuery,
  foldText,
  isFiltering,
  makeFilter,
  type ScheduleFilter,
} from '../../src/shared/schedule/filter.ts';
import { session } from './fixtures.ts';

const q = (s: string) => filterFromQuery(new URLSearchParams(s));

describe('filterFromQuery', () => {
  it.each<[string, string, Partial<ScheduleFilter>]>([
    ['empty', '', {}],
    ['repeated days', 'day=2025-12-22&day=2025-12-21', { days: ['2025-12-21', '2025-12-22'] }],
    ['a comma list of days', 'day=2025-12-22,2025-12-21,2025-12-22', { days: ['2025-12-21', '2025-12-22'] }],
    ['invalid days dropped', 'day=2025-02-30&day=tomorrow&day=2025-12-21&day=', { days: ['2025-12-21'] }],
    ['rooms (commas kept)', 'room=Room%202&room=Hall%2C%20east&room=Room%202', { rooms: ['Hall, east', 'Room 2'] }],
    ['tags repeated and as a list', 'tag=5&tag=2,9&tag=x&tag=-1&tag=0&tag=1.5', { tags: [2, 5, 9] }],
    ['search text trimmed and collapsed', 'q=%20%20machine%20%20learning%20', { q: 'machine learning' }],
    ['views', 'view=list', { view: 'list' }],
    ['the now view', 'view=now', { view: 'now' }],
    ['an unknown view', 'view=table', { view: 'grid' }],
    ['local time', 'tz=local', { tz: 'local' }],
    ['an unknown tz', 'tz=Europe/Lisbon', { tz: 'event' }],
    ['mine=1', 'mine=1', { mine: true }],
    ['mine=0', 'mine=0', { mine: false }],
    ['unknown keys ignored', 'utm_source=x&lang=pt', {}],
  ])('%s', (_, query, expected) => {
    expect(q(query)).toEqual(makeFilter(expected));
  });

  it('caps the search text and the number of values', () => {
    expect(q(`q=${'a'.repeat(1000)}`).q).toHaveLength(200);
    expect(q(Array.from({ length: 500 }, (_, i) => `tag=${i + 1}`).join('&')).tags).toHaveLength(100);
  });
});

describe('filterToQuery', () => {
  it('leaves defaults out: no filter is an empty query', () => {
    expect(filterToQuery(makeFilter()).toString()).toBe('');
    expect(filterToQuery({ ...DEFAULT_FILTER }).toString()).toBe('');
  });

  it('writes keys in a stable order with sorted values', () => {
    const f = makeFilter({
      mine: true,
      tz: 'local',
      view: 'list',
      q: ' ai ',
      tags: [9, 2, 9],
      rooms: ['Room 2', 'Auditório'],
      days: ['2025-12-22', '2025-12-21'],
    });
    expect(filterToQuery(f).toString()).toBe(
      'day=2025-12-21&day=2025-12-22&room=Audit%C3%B3rio&room=Room+2&tag=2&tag=9&q=ai&view=list&tz=local&mine=1',
    );
  });

  it('drops invalid values', () => {
    expect(filterToQuery(makeFilter({ days: ['x'], rooms: [' '], tags: [0, -3, 1.5] })).toString()).toBe('');
  });

  it.each<Partial<ScheduleFilter>>([
    {},
    { days: ['2025-12-21'] },
    { rooms: ['A & B', 'Sala 1, térreo', 'Room=2?'] },
    { tags: [1, 2, 3] },
    { q: 'café & crème' },
    { view: 'list', tz: 'local', mine: true },
    { days: ['2025-12-21', '2025-12-23'], rooms: ['Z', 'A'], tags: [7], q: 'x', view: 'list', tz: 'local', mine: true },
  ])('round-trips %j', (patch) => {
    const f = filterFromQuery(filterToQuery(makeFilter(patch)));
    expect(filterToQuery(f).toString()).toBe(filterToQuery(makeFilter(patch)).toString());
    expect(filterFromQuery(new URLSearchParams(filterToQuery(f).toString()))).toEqual(f);
  });
});

describe('applyFilter', () => {
  const ai = { tagID: 1, name: 'Inteligência Artificial', color: '' };
  const web = { tagID: 2, name: 'Web', color: '' };
  const sessions = [
    session(1, 'Auditório', '2025-12-21T09:00:00Z', '2025-12-21T10:00:00Z', {
      name: 'Abertura',
      tags: [ai],
      speakers: [{ speakerID: 1, name: 'João Araújo', headline: '', image: '' }],
    }),
    session(2, 'Sala 1', '2025-12-21T23:30:00Z', '2025-12-22T00:30:00Z', {
      name: 'Late talk',
      description: '<p>About <em>Señor</em> CSS &amp; HTML, then Q&amp;A</p>',
      tags: [web],
    }),
    session(3, 'Sala 2', '2025-12-22T09:00:00Z', '2025-12-22T10:00:00Z', { name: 'Machine Learning', tags: [ai, web] }),
  ];
  const ids = (f: Partial<ScheduleFilter>, zone = 'Europe/Lisbon', favs?: Set<number>) =>
    applyFilter(sessions, makeFilter(f), zone, favs).map((s) => s.activityID);

  it.each<[string, Partial<ScheduleFilter>, number[]]>([
    ['no filter', {}, [1, 2, 3]],
    ['a day (event zone)', { days: ['2025-12-21'] }, [1, 2]],
    ['two days', { days: ['2025-12-21', '2025-12-22'] }, [1, 2, 3]],
    ['a room', { rooms: ['Sala 1'] }, [2]],
    ['a tag', { tags: [1] }, [1, 3]],
    ['any of the tags', { tags: [1, 2] }, [1, 2, 3]],
    ['a name, any case', { q: 'machine' }, [3]],
    ['without accents', { q: 'auditorio' }, [1]],
    ['with accents the text lacks', { q: 'sénor' }, [2]],
    ['a speaker', { q: 'joao araujo' }, [1]],
    ['a tag name', { q: 'inteligencia' }, [1, 3]],
    ['the description, not its HTML', { q: 'css html' }, [2]],
    ['not the markup', { q: 'em' }, []],
    ['entities decoded', { q: 'Q&A' }, [2]],
    ['every word must match', { q: 'late machine' }, []],
    ['filters together', { days: ['2025-12-22'], tags: [2], q: 'learning' }, [3]],
    ['nothing', { rooms: ['Nowhere'] }, []],
  ])('%s', (_, f, expected) => {
    expect(ids(f)).toEqual(expected);
  });

  it('reads days in the zone it is given (tz=local)', () => {
    expect(ids({ days: ['2025-12-22'] }, 'Europe/Berlin')).toEqual([2, 3]);
  });

  it('keeps only favourites with mine', () => {
    expect(ids({ mine: true }, 'UTC', new Set([3, 99]))).toEqual([3]);
    expect(ids({ mine: true }, 'UTC')).toEqual([]);
    expect(ids({ mine: false }, 'UTC', new Set([3]))).toEqual([1, 2, 3]);
  });

  it('knows whether anything is filtered', () => {
    expect(isFiltering(makeFilter({ view: 'list', tz: 'local' }))).toBe(false);
    expect(isFiltering(makeFilter({ q: 'x' }))).toBe(true);
  });

  it('folds text for matching', () => {
    expect(foldText('  Ação <b>Ñandú</b>&nbsp;ÉTÉ &amp; ')).toBe('acao nandu ete &');
  });
});
