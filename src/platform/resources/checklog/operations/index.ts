import type { AnyOperation } from '../../../kernel/table.ts';
import { checkIn, checkOut } from './scan.ts';
import { checkedIn, find, stats } from './read.ts';

/** Check-in (issue 16, docs/api/checkin.md): scans at the doors, live counts, the log. */
export const checklogOperations: readonly AnyOperation[] = [checkIn, checkOut, stats, checkedIn, find];
