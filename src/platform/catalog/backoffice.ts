import type { AnyOperation } from '../kernel/table.ts';
import { budgetOperations } from '../resources/budget/operations/index.ts';
import { adOperations } from '../resources/ad/operations/index.ts';
import { caseOperations } from '../resources/casestudy/operations/index.ts';
import { beaconOperations } from '../resources/beacon/operations/index.ts';
import { crmfeedOperations } from '../resources/crmfeed/operations/index.ts';
import { daemonOperations } from '../resources/daemon/operations/index.ts';

/** The back office (issue 17): budgets, ads, case studies, beacons, the CRM feed, bulk daemons. */
export const backofficeOperations: readonly AnyOperation[] = [
  ...budgetOperations,
  ...adOperations,
  ...caseOperations,
  ...beaconOperations,
  ...crmfeedOperations,
  ...daemonOperations,
];
