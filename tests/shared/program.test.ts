import { describe, expect, it } from 'vitest';
import { parseProgram, parseSession } from '../../src/shared/schedule/program.ts';

const wire = {
  activityID: '12',
  name: 'Opening keynote',
  description: '<p>Welcome</p>',
  location: ' Auditorium ',
  dateBegin: '1766307600',
  dateEnd: '1766311200',
  capacity: '300',
  highlight: '1',
  stream: 'https://stream.example/1',
  speakers: [{ speakerID: '3', name: 'Ana Lima', headline: 'CTO', image: 'https://img.example/3.jpg' }],
  tags: [{ tagID: '5', name: 'AI', color: '#ff0000' }],
};

describe('parseSession', () => {
  it('turns the wire strings into typed fields', () => {
    expect(parseSession(wire)).toEqual({
      activityID: 12,
      name: 'Opening keynote',
      description: '<p>Welcome</p>',
      location: 'Auditorium',
      dateBegin: 1766307600,
      dateEnd: 1766311200,
      capacity: 300,
      highlight: true,
      stream: 'https://stream.example/1',
      speakers: [{ speakerID: 3, name: 'Ana Lima', headline: 'CTO', image: 'https://img.example/3.jpg' }],
      tags: [{ tagID: 5, name: 'AI', color: '#ff0000' }],
    });
  });

  it.each([
    ['no fields at all', {}, { activityID: 0, name: '', dateBegin: 0, dateEnd: 0, highlight: false, speakers: [] }],
    ['highlight 0', { highlight: '0' }, { highlight: false }],
    ['garbage numbers', { activityID: 'x', capacity: '', dateBegin: 'soon' }, { activityID: 0, capacity: 0 }],
    ['an end before the begin', { dateBegin: '100', dateEnd: '50' }, { dateBegin: 100, dateEnd: 100 }],
    ['a missing end', { dateBegin: '100' }, { dateEnd: 100 }],
    ['speakers not a list', { speakers: 'Ana', tags: {} }, { speakers: [], tags: [] }],
    [
      'junk inside lists',
      { speakers: [null, 'x', [], { name: 'Bo' }], tags: [{ tagID: '2' }] },
      {
        speakers: [{ speakerID: 0, name: 'Bo', headline: '', image: '' }],
        tags: [{ tagID: 2, name: '', color: '' }],
      },
    ],
    ['numbers (not strings) are accepted too', { activityID: 9, dateBegin: 10 }, { activityID: 9, dateBegin: 10 }],
  ])('tolerates %s', (_, row, expected) => {
    expect(parseSession(row)).toMatchObject(expected);
  });
});

describe('parseProgram', () => {
  it('sorts by dateBegin, then location, then activityID, and skips non-objects', () => {
    const rows = [
      { activityID: '4', location: 'B', dateBegin: '200' },
      { activityID: '3', location: 'A', dateBegin: '200' },
      { activityID: '2', location: 'A', dateBegin: '200' },
      { activityID: '1', location: 'Z', dateBegin: '100' },
      null,
      'junk',
    ] as unknown as Record<string, unknown>[];
    expect(parseProgram(rows).map((s) => s.activityID)).toEqual([1, 2, 3, 4]);
  });

  it('answers [] for an empty or broken program', () => {
    expect(parseProgram([])).toEqual([]);
    expect(parseProgram(undefined as unknown as Record<string, unknown>[])).toEqual([]);
  });
});
