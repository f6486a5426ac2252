import { editKey, type EditKey } from '../../edit.ts';
import { bit } from '../../schemas.ts';
import type { ErrorReport } from '../../../shared/wire/error.ts';
import type { ErrorReportRow } from './repository.ts';

/** The keys of error.edit (Podium extension): `solved` (spec §7.6), 0 or 1. */
export const ERROR_EDIT_KEYS: Readonly<Record<string, EditKey>> = { solved: editKey(bit) };

/** A report as error.find lists it (`full`: error.get, with the crash-report fields). */
export function errorRecord(r: ErrorReportRow, full: boolean): ErrorReport {
  return {
    errorID: String(r.errorID),
    personID: String(r.personID),
    eventID: r.eventID === null ? '' : String(r.eventID),
    companyID: r.companyID === null ? '' : String(r.companyID),
    platform: r.platform,
    message: r.message,
    build: r.build,
    date: String(r.date),
    solved: String(r.solved),
    stackTrace: full ? r.stackTrace : '',
    initialConfiguration: full ? r.initialConfiguration : '',
    json: full ? r.json : '',
  };
}
