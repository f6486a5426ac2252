import { defineOperation, qOpt } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { ApiError, conflict } from '../../../../errors.ts';
import { requireCaller, requireCompany } from '../../../../auth/access.ts';
import { crmSyncWire } from '../../../../../shared/wire/crmfeed.ts';
import { administered, linkedEvents, startRun } from '../../../crmfeed/repository.ts';
import { CRM_SYNC_JOB, type CrmSyncPayload } from '../../../crmfeed/job.ts';
import { crmProviderOf } from '../../../crmfeed/provider.ts';

/**
 * Spec §4.3 (Q tokenID only): pushes the people of the company's events to the CRM provider, as a job
 * per linked event (docs/api/crmfeed.md "Sync"). Each event's people go out as that event knows them,
 * into the community and group its admins chose, with its own token: a company sends only what people
 * gave to its own events. Podium extension: Q companyID names one company; without it, every company
 * the token's person administers. No linked event (or no provider): `409 no CRM connected`.
 */
export default defineOperation({
  name: 'company.person.sync',
  summary:
    "Pushes the people of the company's linked events to the CRM provider, one job per event (company admins); crmfeed.get shows each job's progress.",
  methods: ['GET'],
  params: {
    companyID: qOpt(id, 'the company (Podium extension; default: every company the caller administers)'),
  },
  auth: { kind: 'token' },
  writes: true,
  answer: crmSyncWire,
  async handler(ctx, p) {
    const caller = requireCaller(ctx);
    let companies: number[];
    if (p.companyID !== undefined) {
      await requireCompany(ctx, p.companyID, 'admin');
      companies = [p.companyID];
    } else {
      // Event-scope tokens carry no company rights (spec §5.3).
      companies = caller.scope === 'system' ? await administered(ctx.db, caller.personID, caller.operator) : [];
      if (companies.length === 0 && !caller.operator) throw new ApiError(403, 'company admin level required');
    }
    const events = await linkedEvents(ctx.db, companies);
    if (events.length === 0 || !crmProviderOf(ctx.config)) throw conflict('no CRM connected');
    const maxAttempts = ctx.config.JOBS_MAX_ATTEMPTS;
    const byCompany = new Map<number, number[]>();
    for (const e of events) {
      const run = await startRun(ctx.db, e.eventID, ctx.now);
      const payload: CrmSyncPayload = { eventID: e.eventID, run, maxAttempts };
      await ctx.jobs.add(ctx.db, CRM_SYNC_JOB, { ...payload }, { key: `${e.eventID}:${run}`, maxAttempts });
      byCompany.set(e.companyID, [...(byCompany.get(e.companyID) ?? []), e.eventID]);
    }
    // companyID as a number: the change log reads the company from the first row.
    return [...byCompany].map(([companyID, ids]) => ({ companyID, eventIDs: ids.join(','), syncStatus: 'queued' }));
  },
});
