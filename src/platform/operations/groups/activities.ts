import type { AnyOperation } from '../../table.ts';

export const activitiesOperations: readonly AnyOperation[] = [];
