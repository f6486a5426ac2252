import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.ts';
import type { Page, Paged } from '../../db/page.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { badRequest } from '../../errors.ts';
import { contains } from '../hotsite/content.ts';

// A content resource of an event (speaker, sponsor, tag, …) declared once: ONE field list, from which
// everything else is derived — the columns read, the create parameters, the edit keys, the insert
// values, the record as an admin and as the public see it, and a repository that takes `db`/`trx`
// only. The operations come from operations/crud.ts; a resource folder keeps only its special rules.
//
// To declare one:
//   export const THING = defineResource({
//     table: 'thing', id: 'thingID', what: 'thing', wire: thingWire,
//     fields: { name: field(nonBlank(200), 'the name', { required: true }), note: field(text(300), '…', { clear: '' }) },
//     order: [{ lower: 'name' }, 'thingID'],
//   });
// `wire` is the row's schema in src/shared/wire: the field list (with the id and eventID) must have
// exactly its keys, or the declaration does not compile — the platform and every reader of the row
// cannot drift apart.

/** One field of a resource: how its value is checked, told, defaulted, cleared and shown. */
export interface Field<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  /** What the field is, for the create parameter (api.describe, OpenAPI). */
  readonly description: string;
  /** The create call must send it (and an edit cannot clear it). */
  readonly required?: boolean;
  /** The value an edit sent empty stores; left out, an empty value is refused (`400 value cannot be empty (key X)`). */
  readonly clear?: string | number | null;
  /** The value stored when the create call leaves the field out (default: `clear`, else ''). */
  readonly default?: string | number | null;
  /** Shown to the event's admins only (personal or contact data). */
  readonly private?: boolean;
  /** The stored column, when it is not the field's name (a chain's `constraint` is `maxPerPerson`). */
  readonly column?: string;
}

export const field = <S extends z.ZodType>(
  schema: S,
  description: string,
  more: Omit<Field<S>, 'schema' | 'description'> = {},
): Field<S> => ({ schema, description, ...more });

type Fields = Readonly<Record<string, Field>>;
type ValueOf<F extends Field> = F extends Field<infer S> ? z.output<S> : never;

/** The stored row: the id, the event (and the rule-set columns), and every field with its parsed type. */
export type RowOf<F extends Fields, Id extends string> = { [K in Id | 'eventID']: number } & {
  -readonly [K in keyof F]: ValueOf<F[K]> | (F[K]['clear'] extends null ? null : never);
};

/** A column to order by: as stored, or without regard to case. */
export type OrderBy = string | { readonly lower: string } | { readonly raw: ReturnType<typeof sql> };

/**
 * Read-only fields computed from other tables (a list's `memberCount`): their keys, and what adds them
 * to a set of rows — one query for all the rows, never one per row.
 */
export interface Derived<D extends string> {
  readonly keys: readonly D[];
  readonly add: (db: Kysely<DB>, rows: Record<string, any>[]) => Promise<void>;
}

/** A derived count: `key` is how many rows of `table` name the row's id (`column`) in that column. */
export function countOf<D extends string>(key: D, table: keyof DB, column: string): Derived<D> {
  return {
    keys: [key],
    async add(db, rows) {
      const counts = await (db as Kysely<any>)
        .selectFrom(table)
        .select([column, (e) => e.fn.countAll<number>().as('n')])
        .where(
          column,
          'in',
          rows.map((r) => r[column] as number),
        )
        .groupBy(column)
        .execute();
      const n = new Map<number, number>(counts.map((c) => [Number(c[column]), Number(c.n)]));
      for (const row of rows) row[key] = n.get(row[column] as number) ?? 0;
    },
  };
}

/** Keys of the wire row that the field list lacks, or the other way round (never when they agree). */
type Drift<W, F, Id extends string> =
  Exclude<keyof W, keyof F | Id | 'eventID'> | Exclude<keyof F | Id | 'eventID', keyof W>;

export interface ResourceSpec<
  T extends keyof DB,
  Id extends string,
  F extends Fields,
  W extends z.ZodObject,
  Also extends string = never,
  D extends string = never,
> {
  readonly table: T;
  readonly id: Id;
  /** The resource's name in error lines (`404 speaker not found`). */
  readonly what: string;
  readonly fields: F;
  /** Columns stored and shown but set by the resource's rules, never by create or edit params. */
  readonly also?: readonly Also[];
  /** Fields computed on read from other tables. */
  readonly derived?: Derived<D>;
  /** Its row in src/shared/wire: the field list (with `also` and `derived`) must have exactly its keys. */
  readonly wire: [Drift<z.output<W>, F, Id | Also | D>] extends [never]
    ? W
    : { error: 'the field list and the wire row differ in'; keys: Drift<z.output<W>, F, Id | Also | D> };
  /** Order of lists; end with the id so pages never overlap. */
  readonly order: readonly OrderBy[];
}

/** What a create that leaves a field out stores (null is a value here: "no linked person"). */
function defaultOf(f: Field): unknown {
  if (f.default !== undefined) return f.default;
  return f.clear !== undefined ? f.clear : '';
}

/** What a list read may narrow by: columns equal to values, and text that some columns contain. */
export interface ListFilter {
  readonly equal?: Readonly<Record<string, string | number | undefined>>;
  readonly text?: { readonly columns: readonly string[]; readonly value: string | undefined };
}

/** What code that serves any resource (the operation factory) may use of one, rows untyped. */
export interface AnyResource {
  readonly id: string;
  readonly wire: z.ZodObject;
  readonly what: string;
  readonly names: readonly string[];
  readonly fields: Fields;
  readonly editKeys: Readonly<Record<string, EditKey>>;
  byID(db: Kysely<DB>, rowID: number): Promise<any>;
  page(db: Kysely<DB>, eventID: number, f: ListFilter, page: Page): Promise<Paged<any>>;
  insert(db: Kysely<DB>, eventID: number, values: any, more?: any): Promise<number>;
  update(db: Kysely<DB>, rowID: number, column: string, value: unknown): Promise<void>;
  remove(db: Kysely<DB>, rowID: number): Promise<void>;
  record(row: any, admin: boolean): any;
}

export function defineResource<
  T extends keyof DB,
  Id extends string,
  F extends Fields,
  W extends z.ZodObject,
  Also extends string = never,
  D extends string = never,
>(spec: ResourceSpec<T, Id, F, W, Also, D>) {
  const { table, id, what, fields, order, also = [], derived } = spec;
  const wire = spec.wire as W;
  type Row = RowOf<F, Id> & { [K in Also]: number | null } & { [K in D]: unknown };
  const names = Object.keys(fields) as (keyof F & string)[];
  const columnOf = (n: string) => fields[n].column ?? n;
  const columns = [id, 'eventID', ...also, ...names.map((n) => (fields[n].column ? `${fields[n].column} as ${n}` : n))];
  const withDerived = async <R extends Record<string, any>>(db: Kysely<DB>, rows: R[]): Promise<R[]> => {
    if (derived && rows.length > 0) await derived.add(db, rows);
    return rows;
  };
  const key: string = id; // a plain column name for the untyped queries
  const hidden = names.filter((n) => fields[n].private);
  // Kysely's types need literal table and column names; the field list holds them as data, so the
  // dynamic queries below go through this one untyped handle, and the row type comes from the list.
  const from = (db: Kysely<DB>) => (db as Kysely<any>).selectFrom(table as string);

  const editKeys: Record<string, EditKey> = Object.fromEntries(
    names.map((n) => {
      const f = fields[n];
      return [
        n,
        editKey(f.schema, {
          ...(f.clear === undefined ? {} : { clear: f.clear }),
          ...(f.column ? { column: f.column } : {}),
        }),
      ];
    }),
  );

  const filtered = (db: Kysely<DB>, eventID: number, f: ListFilter) => {
    let q = from(db).where('eventID', '=', eventID);
    for (const [column, value] of Object.entries(f.equal ?? {})) {
      if (value !== undefined) q = q.where(column, '=', value);
    }
    const text = f.text;
    if (text?.value !== undefined) q = q.where((e) => e.or(text.columns.map((c) => contains(c, text.value!))));
    return q;
  };

  return {
    table,
    id,
    what,
    fields,
    names,
    wire,
    /** speaker.edit's keys: every field; an empty value clears all but the required ones. */
    editKeys,

    async byID(db: Kysely<DB>, rowID: number): Promise<Row | undefined> {
      // eventID set: rows of the same table that belong to the company, not an event (the company's
      // event tags), are not this resource's.
      const row = await from(db)
        .select(columns)
        .where(key, '=', rowID)
        .where('eventID', 'is not', null)
        .executeTakeFirst();
      return row && ((await withDerived(db, [row]))[0] as Row);
    },

    /** One page of the event's rows in the resource's order; the total only when the page asks. */
    async page(db: Kysely<DB>, eventID: number, f: ListFilter, page: Page): Promise<Paged<Row>> {
      let q = filtered(db, eventID, f).select(columns);
      for (const o of order) {
        q = q.orderBy(typeof o === 'string' ? o : 'lower' in o ? sql`lower(${sql.ref(o.lower)})` : o.raw);
      }
      const rows = (await withDerived(db, await q.limit(page.limit).offset(page.offset).execute())) as Row[];
      if (!page.paginated) return rows;
      const { n } = await filtered(db, eventID, f)
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },

    /**
     * The values of a create, as its parameters arrive (strings), checked and parsed by the field list:
     * what the create operation's params do, for callers that are not a request (the seed, the CLI).
     * A bad or missing required value is the same `400` line the operation answers.
     */
    parse(input: Readonly<Record<string, string | undefined>>): Partial<Row> {
      const out: Record<string, unknown> = {};
      for (const n of names) {
        const raw = input[n];
        if (raw === undefined) {
          if (fields[n].required) throw badRequest(`${n} cannot be empty`);
          continue;
        }
        const parsed = fields[n].schema.safeParse(raw);
        if (!parsed.success) throw badRequest(`${n} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
        out[n] = parsed.data;
      }
      return out as Partial<Row>;
    },

    /** Inserts a row; fields left out get their default (required ones must be given). */
    async insert(db: Kysely<DB>, eventID: number, values: Partial<Row>, more: Partial<Row> = {}) {
      const row: Record<string, unknown> = { eventID, ...more };
      for (const n of names) row[columnOf(n)] = values[n] !== undefined ? values[n] : defaultOf(fields[n]);
      const inserted = await (db as Kysely<any>)
        .insertInto(table as string)
        .values(row)
        .returning(key)
        .executeTakeFirstOrThrow();
      return Number(inserted[key]);
    },

    async update(db: Kysely<DB>, rowID: number, column: string, value: unknown): Promise<void> {
      await (db as Kysely<any>)
        .updateTable(table as string)
        .set({ [column]: value })
        .where(key, '=', rowID)
        .execute();
    },

    async remove(db: Kysely<DB>, rowID: number): Promise<void> {
      await (db as Kysely<any>)
        .deleteFrom(table as string)
        .where(key, '=', rowID)
        .execute();
    },

    /** The record as a viewer sees it: admins every field, everyone else without the private ones. */
    record(row: Row, admin: boolean): Row {
      if (admin || hidden.length === 0) return row;
      const out = { ...row };
      for (const k of hidden) delete out[k];
      return out;
    },
  };
}
