import type { AnyOperation } from '../../table.ts';
import personEdit from '../person/edit.ts';
import personRecover from '../person/recover.ts';
import personConfirm from '../person/confirm.ts';

/** The person's own identity (issue 9): edited with their system token, or recovered by e-mail. */
export const peopleOperations: readonly AnyOperation[] = [personEdit, personRecover, personConfirm];
