// docs/api.md's edit-key tables name exactly the keys the operations take: a key added to a field list
// without a line in the docs (or a line left behind by a removed key) fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EDIT_KEYS as EVENT_KEYS } from '../../src/platform/resources/event/fields.ts';
import { EDIT_KEYS as ACTIVITY_KEYS } from '../../src/platform/resources/activity/fields.ts';
import { BUDGET_EDIT_KEYS } from '../../src/platform/resources/budget/fields.ts';
import { CASE_EDIT_KEYS } from '../../src/platform/resources/casestudy/fields.ts';
import { AD } from '../../src/platform/resources/ad/repository.ts';
import { ACTION_EDIT_KEYS } from '../../src/platform/resources/beacon/fields.ts';

const API_MD = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The backticked names in the first cell of each row of the table under `heading`. */
export function keysOfTable(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,3} /); // the next heading, if any
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

describe('docs/api.md edit keys', () => {
  it.each([
    ['### event.edit keys', EVENT_KEYS],
    ['### activity.edit keys', ACTIVITY_KEYS],
  ])('%s lists every key of the field list, once, and no other', (heading, keys) => {
    const documented = keysOfTable(API_MD, heading);
    expect(documented.length).toBe(new Set(documented).size);
    expect([...documented].sort()).toEqual(Object.keys(keys).sort());
  });

  // The back office's modules (issue 17) document their keys on their own pages.
  it.each([
    ['budgets.md', '### budget.edit keys', BUDGET_EDIT_KEYS],
    ['ads.md', '### ad.edit keys', AD.editKeys],
    ['cases.md', '### case.edit keys', CASE_EDIT_KEYS],
    ['beacons.md', '### beacon.action.edit keys', ACTION_EDIT_KEYS],
  ])('docs/api/%s: %s lists every key, once, and no other', (file, heading, keys) => {
    const documented = keysOfTable(readFileSync(new URL(`../../docs/api/${file}`, import.meta.url), 'utf8'), heading);
    expect(documented.length).toBe(new Set(documented).size);
    expect([...documented].sort()).toEqual(Object.keys(keys).sort());
  });

  it('reads the table of a heading only', () => {
    const md = '## A\n\n### x keys\n\n| `a`, `b` | v |\n| `c` (ext.) | w |\n\n### y keys\n\n| `d` | v |\n';
    expect(keysOfTable(md, '### x keys')).toEqual(['a', 'b', 'c']);
    expect(keysOfTable(md, '### y keys')).toEqual(['d']);
  });
});
