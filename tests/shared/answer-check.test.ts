import { describe, expect, it } from 'vitest';
import { formatRefusal } from '../../src/shared/answer-check.ts';

// The format checks the platform refuses answers by and /me runs before sending them (one function).

describe('formatRefusal', () => {
  it.each([
    ['date', '2030-12-31', undefined],
    ['date', '2028-02-29', undefined],
    ['date', '2027-02-29', 'date'],
    ['date', '31/12/2030', 'date'],
    ['date', '2030-13-01', 'date'],
    ['number', '-12.5', undefined],
    ['number', '1e3', 'number'],
    ['number', 'three', 'number'],
    ['email', 'ana@example.com', undefined],
    ['email', 'ana@example', 'email'],
    ['email', `${'a'.repeat(310)}@example.com`, 'email'],
    ['telephone', '+351 (21) 000-0000', undefined],
    ['telephone', '12', 'telephone'],
    ['telephone', '(-)', 'telephone'],
    ['telephone', 'call me', 'telephone'],
    ['text', 'anything at all', undefined],
    ['url', 'not a url', undefined], // the platform's alone
  ] as const)('%s %j → %s', (type, value, refused) => {
    expect(formatRefusal(type, value)).toBe(refused);
  });
});
