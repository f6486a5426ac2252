import type { AnyOperation } from '../kernel/table.ts';
import { budgetOperations } from '../resources/budget/operations/index.ts';

/** The back office (issue 17): budgets, ads, case studies. */
export const backofficeOperations: readonly AnyOperation[] = [...budgetOperations];
