import type { AnyOperation } from '../../table.ts';

export const attendanceOperations: readonly AnyOperation[] = [];
