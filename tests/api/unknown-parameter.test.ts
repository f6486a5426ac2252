import { describe, expect, it } from 'vitest';
import { unknownParameter } from '../../src/platform/kernel/unknown.ts';

// The line that refuses a name an operation does not take (dispatch.ts refuseUnknown): the closest
// name when the sent one is a likely misspelling of it, else the operation's own list.

const SHARED = ['action', 'format', 'sandbox', 'tokenID'];
const EVENT_GET = ['namespace', 'nickname', 'eventID', 'grant'];

describe('unknownParameter', () => {
  it.each([
    ['a letter left out', 'nicknme', EVENT_GET, undefined, 'nicknme is not a parameter of op: did you mean nickname?'],
    [
      'two letters swapped',
      'nicknaem',
      EVENT_GET,
      undefined,
      'nicknaem is not a parameter of op: did you mean nickname?',
    ],
    ['another case', 'eventId', EVENT_GET, undefined, 'eventId is not a parameter of op: did you mean eventID?'],
    [
      'a name every operation takes',
      'tokenId',
      EVENT_GET,
      undefined,
      'tokenId is not a parameter of op: did you mean tokenID?',
    ],
    [
      'nothing close: the list',
      'id',
      EVENT_GET,
      undefined,
      'id is not a parameter of op, which takes namespace, nickname, eventID, grant',
    ],
    [
      'three letters off is no misspelling',
      'nickxxxe',
      EVENT_GET,
      undefined,
      'nickxxxe is not a parameter of op, which takes namespace, nickname, eventID, grant',
    ],
    [
      'two letters off a three-letter name is another word',
      'kye',
      ['key', 'value'],
      undefined,
      'kye is not a parameter of op, which takes key, value',
    ],
    ['an operation of no parameters', 'x', [], undefined, 'x is not a parameter of op, which takes none'],
    [
      'with a pattern',
      'feedbak_2',
      ['eventID'],
      'feedback_<feedbackID>',
      'feedbak_2 is not a parameter of op, which takes eventID and feedback_<feedbackID>',
    ],
    ['an empty name', '', ['eventID'], undefined, '(an empty name) is not a parameter of op, which takes eventID'],
    [
      'a long name is cut and not compared',
      `eventID${'x'.repeat(100)}`,
      ['eventID'],
      undefined,
      `eventID${'x'.repeat(53)}… is not a parameter of op, which takes eventID`,
    ],
  ] as const)('%s', (_label, name, takes, pattern, line) => {
    expect(unknownParameter(name, 'op', takes, SHARED, pattern)).toBe(line);
  });
});
