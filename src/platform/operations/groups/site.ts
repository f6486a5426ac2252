import type { AnyOperation } from '../../table.ts';

export const siteOperations: readonly AnyOperation[] = [];
