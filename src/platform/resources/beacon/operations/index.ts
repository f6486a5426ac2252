import type { AnyOperation } from '../../../kernel/table.ts';
import { beaconCreate, beaconFind, beaconRemove } from './beacon.ts';
import { beaconEventBind, beaconEventDismiss, beaconEventFind } from './event.ts';
import { beaconActionCreate, beaconActionEdit, beaconActionFind, beaconActionRemove } from './action.ts';
import { beaconLogBind, beaconLogCount } from './log.ts';

/** Beacons (issue 17, docs/api/beacons.md). */
export const beaconOperations: readonly AnyOperation[] = [
  beaconCreate,
  beaconFind,
  beaconRemove,
  beaconEventBind,
  beaconEventDismiss,
  beaconEventFind,
  beaconActionCreate,
  beaconActionEdit,
  beaconActionRemove,
  beaconActionFind,
  beaconLogBind,
  beaconLogCount,
];
