import type { AnyOperation } from '../../table.ts';

export const attendeesOperations: readonly AnyOperation[] = [];
