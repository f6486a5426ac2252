import { z } from 'zod';
import { badRequest } from './errors.ts';
import type { AnyOperation } from './kernel/table.ts';

/** One editable key of an edit-style operation (spec §1.3: Q key, B value). */
export interface EditKey {
  readonly schema: z.ZodType;
  /** Column written, when it differs from the key. */
  readonly column?: string;
  /** An empty value clears the field (to this value) instead of being refused. */
  readonly clear?: string | number | null;
}

export const editKey = (schema: z.ZodType, more: Omit<EditKey, 'schema'> = {}): EditKey => ({ schema, ...more });

/**
 * Whether an operation is edit-style (spec §1.3): Q `key` names the field and B `value` holds it.
 * The dispatcher refuses such a call when the body has no `value` at all, so `value` undefined here
 * means the caller sent it empty (`value=`), never that they left it out.
 */
export const isEditOperation = (op: AnyOperation): boolean =>
  op.params.key?.place === 'query' && op.params.value?.place === 'body';

/**
 * Validates `key` against an operation's own list and parses `value` for it. Keys outside the list are
 * refused (no mass assignment), naming the valid ones. `value` undefined is an explicitly empty value
 * (an absent one never gets here: see isEditOperation): it clears the keys that say how, and is
 * refused for the others. Returns the column and the value to store.
 */
export function parseEdit(
  keys: Readonly<Record<string, EditKey>>,
  key: string,
  value: string | undefined,
): { column: string; value: unknown } {
  const spec = Object.hasOwn(keys, key) ? keys[key] : undefined;
  if (!spec) throw badRequest(`key ${key.slice(0, 60)} cannot be edited here; keys: ${keyList(keys)}`);
  const column = spec.column ?? key;
  if (value === undefined || value === '') {
    if (spec.clear !== undefined) return { column, value: spec.clear };
    throw badRequest(`value cannot be empty (key ${key})`);
  }
  const parsed = spec.schema.safeParse(value);
  if (!parsed.success) throw badRequest(`value ${parsed.error.issues[0]?.message ?? 'is invalid'} (key ${key})`);
  return { column, value: parsed.data };
}

/** Lists of keys for api.describe and docs. */
export const keyList = (keys: Readonly<Record<string, EditKey>>) => Object.keys(keys).join(', ');
