import type { AnyOperation } from '../kernel/table.ts';
import personEdit from '../resources/person/operations/edit.ts';
import personRecover from '../resources/person/operations/recover.ts';
import personConfirm from '../resources/person/operations/confirm.ts';
import personRequestLink from '../resources/person/operations/requestLink.ts';
import personSignInLink from '../resources/person/operations/signInLink.ts';
import personSignOut from '../resources/person/operations/signOut.ts';

/**
 * The person's own identity (issue 9): edited with their system token, or recovered by e-mail; event
 * magic links and signing out (issue 18).
 */
export const peopleOperations: readonly AnyOperation[] = [
  personEdit,
  personRecover,
  personConfirm,
  personRequestLink,
  personSignInLink,
  personSignOut,
];
