import type { AnyOperation } from '../../table.ts';

export const relationsOperations: readonly AnyOperation[] = [];
