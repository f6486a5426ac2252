import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { defineOperation, q, pageParams, pageOf, type AnyOperation } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { downloadWire } from '../../../../shared/wire/download.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { COMPANY_LEVEL } from '../../../auth/levels.ts';
import { companyLevelOf, requireCaller } from '../../../auth/access.ts';
import type { Context } from '../../../kernel/table.ts';
import { XLSX_CONTENT_TYPE } from '../../../excel.ts';
import {
  downloadByID,
  downloadRecord,
  fileOf,
  findDownloads,
  namesOf,
  removeDownload,
  stateOf,
  type DownloadRow,
} from '../repository.ts';
import { apiUrlOf } from './queue.ts';

/**
 * A report the caller may handle: the person who asked (with an event-scope token, in the report's
 * event), or an admin of its company (system scope).
 * Anyone else is told what an unknown id is told.
 */
async function ownReport(ctx: Context, downloadID: number): Promise<DownloadRow> {
  const caller = requireCaller(ctx);
  const row = await downloadByID(ctx.db, downloadID);
  if (!row) throw notFound('download');
  // An event-scope token acts in its own event only (spec §5.3): its person's reports of that event.
  if (row.personID === caller.personID && (caller.scope === 'system' || caller.targetID === row.eventID)) return row;
  if ((await companyLevelOf(ctx.db, caller, row.companyID)) === COMPANY_LEVEL.ADMIN) return row;
  throw notFound('download');
}

/** Spec §4.1: the company's download center. */
const downloadFind = defineOperation({
  name: 'download.find',
  summary:
    "Lists the company's reports (format=excel-daemon), newest first: title, type, who asked, when, state (queued, running with progress, ready, failed, expired), size and url. Company admins see every report, other members their own.",
  methods: ['GET'],
  params: { companyID: q(id, 'the company'), ...pageParams },
  auth: { kind: 'company', role: 'member' },
  writes: false,
  answer: downloadWire,
  async handler(ctx, p) {
    const admin = ctx.access!.level === COMPANY_LEVEL.ADMIN;
    const found = await findDownloads(ctx.db, p.companyID, admin ? undefined : ctx.caller!.personID, pageOf(p));
    const apiUrl = apiUrlOf(ctx.config);
    const record = (r: Parameters<typeof downloadRecord>[0]) => downloadRecord(r, ctx.now, apiUrl);
    return Array.isArray(found) ? found.map(record) : { rows: found.rows.map(record), total: found.total };
  },
});

/**
 * Podium extension: one report's record, as download.find lists it. For the person who asked or an
 * admin of its company (anyone else: 404); the object of the download.* webhook payloads.
 */
const downloadGet = defineOperation({
  name: 'download.get',
  summary:
    "One report's record as download.find lists it (state, progress, size, url): for the person who asked or an admin of its company.",
  methods: ['GET'],
  params: { downloadID: q(id, 'the report') },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  answer: downloadWire,
  async handler(ctx, p) {
    const row = await ownReport(ctx, p.downloadID);
    return [downloadRecord(await namesOf(ctx.db, row), ctx.now, apiUrlOf(ctx.config))];
  },
});

/** Spec §4.1: deletes a report and its file (the person who asked, or a company admin). */
const downloadRemove = defineOperation({
  name: 'download.remove',
  summary: 'Deletes a report and its file (the person who asked, or an admin of its company); a running build stops.',
  methods: ['GET'],
  params: { downloadID: q(id, 'the report') },
  auth: { kind: 'token' },
  writes: true,
  answer: z.object({ downloadID: z.string(), companyID: z.string() }),
  async handler(ctx, p) {
    const row = await ownReport(ctx, p.downloadID);
    await removeDownload(ctx.db, row.downloadID);
    // The change the dispatcher records names the report's company (a `token` rule found none).
    (p as Record<string, unknown>).companyID = row.companyID;
    return [{ downloadID: String(row.downloadID), companyID: String(row.companyID) }];
  },
});

const sameKey = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Podium extension: the file of a ready report, at the `url` its record shows. The url's key alone is
 * not enough: the token must be the asker's (or a company admin's) and may still read the list now.
 */
const downloadFile = defineOperation({
  name: 'download.file',
  summary:
    "Sends a ready report's spreadsheet (the url of its record, with the caller's tokenID): to the person who asked or a company admin, who must still be allowed to read the list it holds.",
  methods: ['GET'],
  params: {
    downloadID: q(id, 'the report'),
    key: q(z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be the key of the report url'), "the key in the report's url"),
  },
  auth: { kind: 'token' },
  extension: true,
  writes: false,
  file: true,
  async handler(ctx, p) {
    const row = await ownReport(ctx, p.downloadID);
    if (!sameKey(row.secret, p.key)) throw notFound('download');
    const state = stateOf(row, ctx.now);
    if (state === 'expired') throw new ApiError(404, 'download has expired');
    if (state === 'failed') throw new ApiError(409, `download failed: ${row.error}`);
    if (state !== 'ready') throw new ApiError(409, `download is not ready yet (${state}, ${row.rows} rows)`);
    // A report made with a system-scope token may hold more than an event-scope token may read.
    if (row.scope === 'system' && ctx.caller!.scope === 'event')
      throw new ApiError(403, 'a system-scope token is required for this report');
    // The rights are checked again, now: the list's rule and its own checks, as the caller.
    await ctx.mayList!(row.type, JSON.parse(row.params) as Record<string, string>);
    const pieces = await fileOf(ctx.db, row);
    return [
      {
        body: Buffer.concat(pieces),
        type: XLSX_CONTENT_TYPE,
        filename: `${row.type.replaceAll('.', '-')}-${row.downloadID}.xlsx`,
      },
    ];
  },
});

/** The download center (issue 17, docs/api/reports.md). */
export const downloadOperations: readonly AnyOperation[] = [downloadFind, downloadGet, downloadRemove, downloadFile];
