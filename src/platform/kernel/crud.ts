import {
  b,
  bOpt,
  defineOperation,
  editParams,
  pageOf,
  pageParams,
  q,
  qOpt,
  LEVEL,
  type AnyOperation,
  type Auth,
  type Context,
  type Method,
  type Param,
  type Params,
} from './table.ts';
import { id, text } from '../schemas.ts';
import { notFound } from '../errors.ts';
import { keyList, parseEdit } from '../edit.ts';
import type { AnyResource, ListFilter } from '../resources/crud/resource.ts';
import { grantParam, objectReader, siteReader } from './site-read.ts';

// The operations of a resource of an event (create, edit, find, get, remove), made from its field
// list (resources/crud/resource.ts). Every resource gets the same rules: event admins write; reads
// are the site's (anyone who may read the event's site: members with their token, the public for a
// visible event, or a private one with its grant; private fields only for admins) unless the
// resource names the event levels that read it; an id of an event the caller may not see answers as
// a missing one. A resource adds only its special rules through the hooks.

type Row = Record<string, unknown>;
/** The factory's parameters are built from data, so their values are read untyped here. */
type Values = Record<string, any>;

export type CrudOperation = 'create' | 'edit' | 'find' | 'get' | 'remove';

const DEFAULT_METHODS: Readonly<Record<CrudOperation, readonly Method[]>> = {
  create: ['POST'],
  edit: ['POST'],
  find: ['GET'],
  get: ['GET'],
  remove: ['GET'],
};

export interface CrudOptions<P extends Params> {
  /** The spec module (`speaker`): operations are `speaker.create`, … */
  readonly module: string;
  /**
   * One line per operation, for api.describe (edit's is followed by its keys, and may be left out). The
   * resource has the operations named here, and edit when `edit` is given.
   */
  readonly summaries: Readonly<Partial<Record<CrudOperation, string>>>;
  /** The edit's `value`: its bound and what an empty one does. */
  readonly edit?: { readonly max: number; readonly description: string };
  /** How the find narrows its list: by text some columns contain (`query`), by values others equal. */
  readonly find?: {
    /** Columns that `query` searches, in any case. */
    readonly text?: readonly string[];
    /** Parameters whose value the column of the same name must equal. */
    readonly equal?: P;
    /** Callable from any page (the widgets read it). */
    readonly cors?: boolean;
  };
  /**
   * The event levels that read (find, get), when the rows are not the public website's content (a list
   * of attendees is an organizer's tool): then no grant, no public cache, every field shown.
   */
  readonly readLevels?: number;
  /** The operations the spec names; the others are Podium extensions (docs/api.md). */
  readonly spec?: readonly CrudOperation[];
  /** Methods other than the default (POST for create and edit, GET for the rest). */
  readonly methods?: Readonly<Partial<Record<CrudOperation, readonly Method[]>>>;
  /** Create parameters read from the query string rather than the body (Q in the spec's table). */
  readonly inQuery?: readonly string[];
  /** Special rules, run in the write transaction before the row is written. */
  readonly rules?: {
    /** create: may refuse or complete the values, and give the columns set by rules (`also`). */
    readonly create?: (ctx: Context, eventID: number, values: Row) => Promise<Row | void>;
    /** edit: may refuse the change of `column` of `row` to `value`. */
    readonly edit?: (ctx: Context, row: Row, column: string, value: unknown) => Promise<void>;
  };
}

export function crudOperations<P extends Params>(r: AnyResource, o: CrudOptions<P>): AnyOperation[] {
  const idParam = { [r.id]: q(id, `the ${r.what}`) };
  const admin = { kind: 'event', levels: LEVEL.ADMIN } as const;
  const via = (levels: number) => ({ kind: 'event', levels, via: [r.id] }) as Auth;
  const organizers = o.readLevels;
  const reread = async (ctx: Context, rowID: number) => r.record((await r.byID(ctx.db, rowID))!, true);
  const common = (op: CrudOperation, summary: string, writes: boolean) => ({
    name: `${o.module}.${op}`,
    answer: r.wire,
    summary,
    methods: o.methods?.[op] ?? DEFAULT_METHODS[op],
    ...(o.spec?.includes(op) ? {} : { extension: true }),
    writes,
  });
  const made: Partial<Record<CrudOperation, AnyOperation>> = {};

  if (o.summaries.create !== undefined) {
    const params: Params = { eventID: q(id, 'the event') };
    for (const name of r.names) {
      const f = r.fields[name];
      const inQuery = o.inQuery?.includes(name);
      params[name] = ((inQuery ? (f.required ? q : qOpt) : f.required ? b : bOpt) as typeof b)(
        f.schema,
        f.description,
      ) as Param;
    }
    made.create = defineOperation<Params>({
      ...common('create', o.summaries.create, true),
      params,
      auth: admin,
      async handler(ctx, p: Values) {
        const values: Row = {};
        for (const name of r.names) values[name] = p[name];
        const more = (await o.rules?.create?.(ctx, p.eventID as number, values)) ?? {};
        return [await reread(ctx, await r.insert(ctx.db, p.eventID as number, values, more))];
      },
    });
  }

  if (o.edit !== undefined) {
    made.edit = defineOperation<Params>({
      ...common('edit', `Edits one ${r.what} field. Keys: ${keyList(r.editKeys)}.`, true),
      params: {
        ...idParam,
        ...editParams(o.edit.max, o.edit.description),
      },
      auth: via(LEVEL.ADMIN),
      async handler(ctx, p: Values) {
        const rowID = p[r.id] as number;
        const { column, value } = parseEdit(r.editKeys, p.key as string, p.value as string | undefined);
        await o.rules?.edit?.(ctx, (await r.byID(ctx.db, rowID))!, column, value);
        await r.update(ctx.db, rowID, column, value);
        return [await reread(ctx, rowID)];
      },
    });
  }

  if (o.summaries.find !== undefined) {
    const { text: columns, equal = {} } = o.find ?? {};
    const filter = (p: Values): ListFilter => ({
      equal: Object.fromEntries(Object.keys(equal).map((k) => [k, p[k]])),
      ...(columns ? { text: { columns, value: p.query } } : {}),
    });
    const list = async (ctx: Context, p: Values, isAdmin: boolean) => {
      const page = await r.page(ctx.db, p.eventID as number, filter(p), pageOf(p));
      const shape = (rows: Row[]) => rows.map((row) => r.record(row as never, isAdmin));
      return Array.isArray(page) ? shape(page) : { rows: shape(page.rows), total: page.total };
    };
    const own: Params = {
      eventID: q(id, 'the event'),
      ...(columns ? { query: qOpt(text(200), `${columns.join(' or ')} contains (any case)`) } : {}),
      ...equal,
    };
    made.find = defineOperation<Params>(
      organizers === undefined
        ? {
            ...common('find', o.summaries.find, false),
            params: { ...own, grant: grantParam, ...pageParams },
            auth: { kind: 'public' },
            ...(o.find?.cors ? { cors: true } : {}),
            cachePublic: true,
            async handler(ctx, p: Values) {
              const { admin: isAdmin } = await siteReader(ctx, p.eventID as number, p.grant as string | undefined);
              return list(ctx, p, isAdmin);
            },
          }
        : {
            ...common('find', o.summaries.find, false),
            params: { ...own, ...pageParams },
            auth: { kind: 'event', levels: organizers },
            handler: (ctx, p: Values) => list(ctx, p, true),
          },
    );
  }

  if (o.summaries.get !== undefined) {
    made.get = defineOperation<Params>(
      organizers === undefined
        ? {
            ...common('get', o.summaries.get, false),
            params: { ...idParam, grant: grantParam },
            auth: { kind: 'public' },
            cachePublic: true,
            async handler(ctx, p: Values) {
              const row = await r.byID(ctx.db, p[r.id] as number);
              if (!row) throw notFound(r.what);
              const reader = await objectReader(ctx, r.what, row.eventID, p.grant as string | undefined);
              return [r.record(row, reader.admin)];
            },
          }
        : {
            ...common('get', o.summaries.get, false),
            params: idParam,
            auth: via(organizers),
            handler: async (ctx, p: Values) => [await reread(ctx, p[r.id] as number)],
          },
    );
  }

  if (o.summaries.remove !== undefined) {
    made.remove = defineOperation<Params>({
      ...common('remove', o.summaries.remove, true),
      params: idParam,
      auth: via(LEVEL.ADMIN),
      async handler(ctx, p: Values) {
        const rowID = p[r.id] as number;
        const row = await reread(ctx, rowID);
        await r.remove(ctx.db, rowID);
        return [row];
      },
    });
  }

  // The order of api.describe and the docs.
  return (['create', 'edit', 'remove', 'get', 'find'] as const).flatMap((op) => made[op] ?? []);
}
