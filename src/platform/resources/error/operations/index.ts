import { z } from 'zod';
import {
  bOpt,
  defineOperation,
  editParams,
  pageOf,
  pageParams,
  q,
  qOpt,
  COMPANY_LEVEL,
  type AnyOperation,
  type Context,
} from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { companyLevelOf, requireCaller, requireCompany } from '../../../auth/access.ts';
import { errorCreatedWire, errorReportWire } from '../../../../shared/wire/error.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { maskAddress } from '../../event/access-code-failures.ts';
import { redactJson, redactText } from '../redact.ts';
import { ERROR_EDIT_KEYS, errorRecord } from '../fields.ts';
import {
  adminCompanies,
  companyOfEvent,
  findReports,
  insertReport,
  reportByID,
  setSolved,
  type ErrorReportRow,
} from '../repository.ts';

// Client error reports (spec §4.8 error.create, §7.6; docs/api/errors.md). Anyone may report (a token
// names the reporter); what is kept has its secrets redacted, and the answer echoes nothing of it. The
// spec shows no way to read reports: error.find, error.get and error.edit are Podium extensions for
// platform operators (every report) and company admins (the reports filed under their events).

const HOUR_MS = 3_600_000;
/** Caps (characters) of each field of a report. */
export const CAPS = { platform: 40, message: 2000, stack: 20_000, configuration: 20_000, build: 100, json: 50_000 };

const capped = (max: number) => text(max);

/** The `json` form: a JSON object of at most CAPS.json characters. */
const jsonBody = z
  .string()
  .max(CAPS.json, `must be at most ${CAPS.json} characters`)
  .transform((v, ctx) => {
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // answered below
    }
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
    return z.NEVER;
  });

/** A field of the json form, by any of its usual spellings; '' when none is a string. */
function field(json: Record<string, unknown>, names: readonly string[], max: number): string {
  for (const n of names) {
    const v = json[n];
    if (typeof v === 'string') return v.slice(0, max);
  }
  return '';
}

const errorCreate = defineOperation({
  name: 'error.create',
  summary:
    "Reports a client app's failure (with or without a token): platform and message with optional crash-report fields, or a raw JSON body. Secrets in it are redacted before it is kept; the answer echoes none of it.",
  methods: ['POST'],
  params: {
    platform: bOpt(capped(CAPS.platform), `the client (ios, android, web, …), at most ${CAPS.platform} characters`),
    message: bOpt(capped(CAPS.message), `what failed, at most ${CAPS.message} characters`),
    STACK_TRACE: bOpt(capped(CAPS.stack), `the stack trace, at most ${CAPS.stack} characters`),
    INITIAL_CONFIGURATION: bOpt(capped(CAPS.configuration), `the app's configuration, at most ${CAPS.configuration} characters`), // prettier-ignore
    BUILD: bOpt(capped(CAPS.build), `the app's build, at most ${CAPS.build} characters`),
    json: bOpt(jsonBody, `the whole report as one JSON object (at most ${CAPS.json} characters) instead of the fields`),
    eventID: qOpt(id, 'Podium extension: the event the app was showing; its company admins may then read the report'),
  },
  variants: [['platform', 'message'], ['json']],
  auth: { kind: 'public' },
  writes: true,
  answer: errorCreatedWire,
  async handler(ctx, p) {
    // A sandbox call writes nothing, so it spends no allowance either.
    if (!ctx.sandbox) {
      const { count, resetMs } = await ctx.counter.hit(`error:${maskAddress(ctx.clientIp)}`, HOUR_MS);
      if (count > ctx.config.ERROR_REPORTS_PER_HOUR)
        throw new ApiError(429, 'too many error reports from this address, try again later', {
          'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))),
        });
    }
    let companyID: number | null = null;
    if (p.eventID !== undefined) {
      const company = await companyOfEvent(ctx.db, p.eventID);
      if (company === undefined) throw notFound('event');
      companyID = company;
    }
    const json = p.json;
    const report = json
      ? {
          platform: field(json, ['platform', 'PLATFORM'], CAPS.platform) || 'unknown',
          message: field(json, ['message', 'MESSAGE', 'error'], CAPS.message),
          stackTrace: field(json, ['STACK_TRACE', 'stackTrace', 'stack'], CAPS.stack),
          initialConfiguration: field(json, ['INITIAL_CONFIGURATION', 'initialConfiguration'], CAPS.configuration),
          build: field(json, ['BUILD', 'build'], CAPS.build),
          json: JSON.stringify(redactJson(json)).slice(0, CAPS.json),
        }
      : {
          platform: p.platform ?? '',
          message: p.message ?? '',
          stackTrace: p.STACK_TRACE ?? '',
          initialConfiguration: p.INITIAL_CONFIGURATION ?? '',
          build: p.BUILD ?? '',
          json: '',
        };
    if (report.platform.trim() === '') throw badRequest('platform cannot be empty');
    const row = await insertReport(ctx.db, {
      personID: ctx.caller?.personID ?? 0,
      eventID: p.eventID ?? null,
      companyID,
      platform: redactText(report.platform),
      message: redactText(report.message),
      stackTrace: redactText(report.stackTrace),
      initialConfiguration: redactText(report.initialConfiguration),
      build: redactText(report.build),
      json: report.json,
      address: maskAddress(ctx.clientIp),
      date: ctx.now,
    });
    // The id as a number: the change log takes the new report as the object of this write.
    return [{ errorID: row.errorID, personID: String(row.personID), date: String(row.date), solved: '0' }];
  },
});

/** A report the caller may read: any for operators, their company's for its admins; else the 404 of a missing one. */
async function readableReport(ctx: Context, errorID: number): Promise<ErrorReportRow> {
  const caller = requireCaller(ctx);
  const row = await reportByID(ctx.db, errorID);
  if (row && (caller.operator || (row.companyID !== null && (await companyLevelOf(ctx.db, caller, row.companyID)) === COMPANY_LEVEL.ADMIN))) return row; // prettier-ignore
  throw notFound('error');
}

const SELECTIONS = ['all', 'solved', 'unsolved'] as const;

const errorFind = defineOperation({
  name: 'error.find',
  summary:
    "Lists the error reports the caller may read, newest first (Podium extension): every report for platform operators, those filed under their companies' events for company admins; companyID: one company's (its admins).",
  methods: ['GET'],
  params: {
    companyID: qOpt(
      id,
      "the company whose events' reports to list (its admins); left out: every report the caller may read",
    ),
    selection: qOpt(z.enum(SELECTIONS, `must be one of ${SELECTIONS.join(', ')}`), `${SELECTIONS.join(', ')} (default all)`), // prettier-ignore
    query: qOpt(text(100), 'part of the platform or the message (any case)'),
    ...pageParams,
  },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: errorReportWire,
  async handler(ctx, p) {
    const caller = requireCaller(ctx);
    let companyIDs: number[] | undefined;
    if (p.companyID !== undefined) {
      await requireCompany(ctx, p.companyID, 'admin');
      companyIDs = [p.companyID];
    } else if (!caller.operator) {
      // Company rights come with system-scope tokens only (spec §5.3).
      companyIDs = caller.scope === 'system' ? await adminCompanies(ctx.db, caller.personID, COMPANY_LEVEL.ADMIN) : [];
    }
    const solved = p.selection === 'solved' ? 1 : p.selection === 'unsolved' ? 0 : undefined;
    const page = await findReports(ctx.db, { companyIDs, solved, query: p.query }, pageOf(p));
    const shape = (r: ErrorReportRow) => errorRecord(r, false);
    return Array.isArray(page) ? page.map(shape) : { rows: page.rows.map(shape), total: page.total };
  },
});

const errorGet = defineOperation({
  name: 'error.get',
  summary:
    'Reads one error report with its crash-report fields (Podium extension): operators, or admins of its company.',
  methods: ['GET'],
  params: { errorID: q(id, 'the report') },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: errorReportWire,
  async handler(ctx, p) {
    return [errorRecord(await readableReport(ctx, p.errorID), true)];
  },
});

const errorEdit = defineOperation({
  name: 'error.edit',
  summary: `Marks an error report solved or not (Podium extension): operators, or admins of its company. Keys: ${keyList(ERROR_EDIT_KEYS)}.`,
  methods: ['POST'],
  params: { errorID: q(id, 'the report'), ...editParams(1, '0 or 1') },
  auth: { kind: 'token' },
  extension: true,
  writes: true,
  answer: errorReportWire,
  async handler(ctx, p) {
    const row = await readableReport(ctx, p.errorID);
    const { value } = parseEdit(ERROR_EDIT_KEYS, p.key, p.value);
    await setSolved(ctx.db, row.errorID, value as number);
    return [errorRecord({ ...row, solved: value as number }, false)];
  },
});

/** Error reports (spec §4.8, §7.6; docs/api/errors.md). */
export const errorOperations: readonly AnyOperation[] = [errorCreate, errorFind, errorGet, errorEdit];
