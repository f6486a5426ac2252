import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The wire rows (src/shared/wire) are the one definition of an answer's fields: the platform declares
// its resources against them and the site reads the platform through them. This compiles the project
// with one wire file changed in memory and checks that the change breaks the platform's declaration
// and the site's reading of the row — drift is a compile error, not a runtime surprise.

const ROOT = resolve(import.meta.dirname, '../..');
const config = ts.getParsedCommandLineOfConfigFile(
  resolve(ROOT, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
)!;

let previous: ts.Program | undefined;
/** The files with errors when `file` reads as `edit` made it (no edit: the project as it is). */
function filesWithErrors(file?: string, edit?: (text: string) => string): Set<string> {
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  const target = file && resolve(ROOT, file);
  host.readFile = (name) => {
    const text = read(name);
    return target && resolve(name) === target && text !== undefined ? edit!(text) : text;
  };
  const getSourceFile = host.getSourceFile.bind(host);
  // The edited file must be parsed anew; the rest is reused from the previous program.
  host.getSourceFile = (name, lang, onError, fresh) =>
    getSourceFile(name, lang, onError, fresh || (target !== undefined && resolve(name) === target));
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    oldProgram: previous,
  });
  previous = program;
  const out = new Set<string>();
  for (const d of ts.getPreEmitDiagnostics(program)) if (d.file) out.add(d.file.fileName.slice(ROOT.length + 1));
  return out;
}

const under = (files: Set<string>, folder: string) => [...files].filter((f) => f.startsWith(folder));

describe('the wire contract', { timeout: 240_000 }, () => {
  it('the project compiles as it is', () => {
    expect([...filesWithErrors()]).toEqual([]);
  });

  it('a field added to a wire row breaks the resource that does not declare it', () => {
    const wire = 'src/shared/wire/speaker.ts';
    expect(readFileSync(resolve(ROOT, wire), 'utf8')).toContain('headline: s,');
    const broken = filesWithErrors(wire, (t) => t.replace('headline: s,', 'headline: s,\n  pronouns: s,'));
    expect(under(broken, 'src/platform/')).toEqual(['src/platform/resources/speaker/repository.ts']);
  });

  // speakerID: the site's .ts code reads it (the sitemap); `name` is read only by .astro files now, which
  // tsc does not compile (`astro check` in npm test does).
  it('a field taken out of a wire row breaks the platform that sends it and the site that reads it', () => {
    const wire = 'src/shared/wire/speaker.ts';
    expect(readFileSync(resolve(ROOT, wire), 'utf8')).toMatch(/\n\s*speakerID: id,/);
    const broken = filesWithErrors(wire, (t) => t.replace(/\n\s*speakerID: id,/, ''));
    expect(under(broken, 'src/platform/')).toContain('src/platform/resources/speaker/repository.ts');
    expect(under(broken, 'src/site/').length).toBeGreaterThan(0);
  });

  // Record builders that are not a field list declare their row too (resources/records.ts).
  it.each([
    ['activity', 'src/shared/wire/activity.ts', 'stream: s,', 'src/platform/resources/activity/record.ts'],
    [
      'attendee',
      'src/shared/wire/attendee.ts',
      'export const attendeeWire = z.object({',
      'src/platform/resources/attendee/record.ts',
    ],
  ])('a field added to the %s row breaks its record builder', (_, wire, line, builder) => {
    expect(readFileSync(resolve(ROOT, wire), 'utf8')).toContain(line);
    const broken = filesWithErrors(wire, (t) => t.replace(line, `${line}\n  pronouns: s,`));
    expect(under(broken, 'src/platform/')).toEqual([builder]);
  });

  it.each([
    ['activity', 'src/shared/wire/activity.ts', /\n\s*oversize: s,/, 'src/platform/resources/activity/record.ts'],
    // A run of plain fields is declared with strings(…): take one name out of it.
    ['attendee', 'src/shared/wire/attendee.ts', /'ticketEntrance',\s*/, 'src/platform/resources/attendee/record.ts'],
  ])('a field taken out of the %s row breaks the record builder that sends it', (_, wire, line, builder) => {
    const broken = filesWithErrors(wire, (t) => t.replace(line, ''));
    expect(under(broken, 'src/platform/')).toContain(builder);
  });
});
