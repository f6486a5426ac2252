import type { AnyOperation } from '../kernel/table.ts';
import personEdit from '../resources/person/operations/edit.ts';
import personRecover from '../resources/person/operations/recover.ts';
import personConfirm from '../resources/person/operations/confirm.ts';

/** The person's own identity (issue 9): edited with their system token, or recovered by e-mail. */
export const peopleOperations: readonly AnyOperation[] = [personEdit, personRecover, personConfirm];
