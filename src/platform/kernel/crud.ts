import { z } from 'zod';
import {
  b,
  bOpt,
  defineOperation,
  pageOf,
  pageParams,
  q,
  LEVEL,
  type AnyOperation,
  type Context,
  type Params,
} from './table.ts';
import { id, text } from '../schemas.ts';
import { notFound } from '../errors.ts';
import { keyList, parseEdit } from '../edit.ts';
import type { AnyResource, ListFilter } from '../resources/crud/resource.ts';
import { grantParam, objectReader, siteReader } from './site-read.ts';

// The five operations of a content resource (create, edit, find, get, remove), made from its field
// list (domain/crud/resource.ts). Every resource gets the same rules: event admins write; anyone who
// may read the event's site reads (members with their token, the public for a visible event, or a
// private one with its grant); private fields only for admins; an id of an event the caller may not
// see answers as a missing one. A resource adds only its special rules through the hooks.

type Row = Record<string, unknown>;
/** The factory's parameters are built from data, so their values are read untyped here. */
type Values = Record<string, any>;

export interface CrudOptions<P extends Params> {
  /** The spec module (`speaker`): operations are `speaker.create`, … */
  readonly module: string;
  /** One line per operation, for api.describe (edit's lists the keys itself). */
  readonly summaries: Readonly<Record<'create' | 'find' | 'get' | 'remove', string>>;
  /** speaker.edit's `value`: its bound and what an empty one does. */
  readonly edit: { readonly max: number; readonly description: string };
  /** speaker.find's own filters, and how they narrow the list. */
  readonly find: {
    readonly params: P;
    readonly filter: (p: Values) => ListFilter;
    /** Callable from any page (the widgets read it). */
    readonly cors?: boolean;
  };
  /** Special rules, run in the write transaction before the row is written. */
  readonly rules?: {
    /** create: may refuse the values, and give the columns set by rules (`also`). */
    readonly create?: (ctx: Context, eventID: number, values: Row) => Promise<Row | void>;
    /** edit: may refuse the change of `column` of `row` to `value`. */
    readonly edit?: (ctx: Context, row: Row, column: string, value: unknown) => Promise<void>;
  };
}

export function crudOperations<P extends Params>(r: AnyResource, o: CrudOptions<P>): AnyOperation[] {
  const idParam = { [r.id]: q(id, `the ${r.what}`) };
  const admin = { kind: 'event', levels: LEVEL.ADMIN } as const;
  const viaID = { ...admin, via: [r.id] } as AnyOperation['auth'];
  const createParams: Params = { eventID: q(id, 'the event') };
  for (const name of r.names) {
    const f = r.fields[name];
    createParams[name] = (f.required ? b : bOpt)(f.schema, f.description);
  }
  const reread = async (ctx: Context, rowID: number) => r.record((await r.byID(ctx.db, rowID))!, true);

  const create = defineOperation<Params>({
    name: `${o.module}.create`,
    answer: r.wire,
    summary: o.summaries.create,
    methods: ['POST'],
    params: createParams,
    auth: admin,
    extension: true,
    writes: true,
    async handler(ctx, p: Values) {
      const values: Row = {};
      for (const name of r.names) values[name] = p[name];
      const more = (await o.rules?.create?.(ctx, p.eventID as number, values)) ?? {};
      return [await reread(ctx, await r.insert(ctx.db, p.eventID as number, values, more))];
    },
  });

  const edit = defineOperation<Params>({
    name: `${o.module}.edit`,
    answer: r.wire,
    summary: `Edits one ${r.what} field. Keys: ${keyList(r.editKeys)}.`,
    methods: ['POST'],
    params: {
      ...idParam,
      key: q(text(60), 'field to edit'),
      value: bOpt(z.string().max(o.edit.max, `must be at most ${o.edit.max} characters`), o.edit.description),
    },
    auth: viaID,
    extension: true,
    writes: true,
    async handler(ctx, p: Values) {
      const rowID = p[r.id] as number;
      const { column, value } = parseEdit(r.editKeys, p.key as string, p.value as string | undefined);
      await o.rules?.edit?.(ctx, (await r.byID(ctx.db, rowID))!, column, value);
      await r.update(ctx.db, rowID, column, value);
      return [await reread(ctx, rowID)];
    },
  });

  const find = defineOperation<Params>({
    name: `${o.module}.find`,
    answer: r.wire,
    summary: o.summaries.find,
    methods: ['GET'],
    params: { eventID: q(id, 'the event'), ...o.find.params, grant: grantParam, ...pageParams },
    auth: { kind: 'public' },
    ...(o.find.cors ? { cors: true } : {}),
    extension: true,
    cachePublic: true,
    writes: false,
    async handler(ctx, p: Values) {
      const { admin: isAdmin } = await siteReader(ctx, p.eventID as number, p.grant as string | undefined);
      const page = await r.page(ctx.db, p.eventID as number, o.find.filter(p), pageOf(p));
      const shape = (rows: Row[]) => rows.map((row) => r.record(row as never, isAdmin));
      return Array.isArray(page) ? shape(page) : { rows: shape(page.rows), total: page.total };
    },
  });

  const get = defineOperation<Params>({
    name: `${o.module}.get`,
    answer: r.wire,
    summary: o.summaries.get,
    methods: ['GET'],
    params: { ...idParam, grant: grantParam },
    auth: { kind: 'public' },
    extension: true,
    cachePublic: true,
    writes: false,
    async handler(ctx, p: Values) {
      const row = await r.byID(ctx.db, p[r.id] as number);
      if (!row) throw notFound(r.what);
      const { admin: isAdmin } = await objectReader(ctx, r.what, row.eventID, p.grant as string | undefined);
      return [r.record(row, isAdmin)];
    },
  });

  const remove = defineOperation<Params>({
    name: `${o.module}.remove`,
    answer: r.wire,
    summary: o.summaries.remove,
    methods: ['GET'],
    params: idParam,
    auth: viaID,
    extension: true,
    writes: true,
    async handler(ctx, p: Values) {
      const rowID = p[r.id] as number;
      const row = await reread(ctx, rowID);
      await r.remove(ctx.db, rowID);
      return [row];
    },
  });

  return [create, edit, remove, get, find];
}
