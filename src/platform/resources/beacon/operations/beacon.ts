import { b, bOpt, defineOperation, pageOf, pageParams, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { beaconWire } from '../../../../shared/wire/beacon.ts';
import { conflict, notFound } from '../../../errors.ts';
import { beaconName, part, uuid } from '../fields.ts';
import { beaconOfCompany, beaconsOf, insertBeacon, removeBeacon } from '../repository.ts';

// The beacon module's root operations (the spec does not show them: Podium extensions). A beacon is a
// physical device of a company, named by its iBeacon identity; beacon.event.bind places it in an event.

export const beaconCreate = defineOperation({
  name: 'beacon.create',
  summary: 'Registers a physical beacon of a company (company admins) by its iBeacon identity (uuid, major, minor).',
  methods: ['POST'],
  params: {
    companyID: q(id, 'the company'),
    uuid: b(uuid, 'iBeacon proximity UUID (any case; answered lower case)'),
    major: b(part, 'iBeacon major, 0 to 65535'),
    minor: b(part, 'iBeacon minor, 0 to 65535 (beacon.event.bind may name the beacon by it)'),
    name: bOpt(beaconName, 'a label such as "Hall A door" (default none)'),
  },
  auth: { kind: 'company', role: 'admin' },
  extension: true,
  writes: true,
  answer: beaconWire,
  async handler(ctx, p) {
    const row = await insertBeacon(ctx.db, {
      companyID: p.companyID,
      uuid: p.uuid,
      major: p.major,
      minor: p.minor,
      name: p.name ?? '',
      date: ctx.now,
    });
    if (!row) throw conflict('the company has a beacon of this uuid, major and minor already');
    return [row];
  },
});

export const beaconFind = defineOperation({
  name: 'beacon.find',
  summary: "Lists a company's beacons (its members), by uuid, major and minor.",
  methods: ['GET'],
  params: { companyID: q(id, 'the company'), ...pageParams },
  auth: { kind: 'company', role: 'member' },
  extension: true,
  writes: false,
  answer: beaconWire,
  handler: (ctx, p) => beaconsOf(ctx.db, p.companyID, pageOf(p)),
});

export const beaconRemove = defineOperation({
  name: 'beacon.remove',
  summary:
    'Removes a beacon of a company (company admins) and answers it as it was; its bindings, actions and log go with it.',
  methods: ['GET'],
  params: { companyID: q(id, 'the company'), beaconID: q(id, 'the beacon') },
  auth: { kind: 'company', role: 'admin' },
  extension: true,
  writes: true,
  answer: beaconWire,
  async handler(ctx, p) {
    const row = await beaconOfCompany(ctx.db, p.companyID, p.beaconID);
    if (!row) throw notFound('beacon');
    await removeBeacon(ctx.db, p.beaconID);
    return [row];
  },
});
