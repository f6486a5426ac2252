import type { AnyOperation } from '../../table.ts';

export const registrationOperations: readonly AnyOperation[] = [];
