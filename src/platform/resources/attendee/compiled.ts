import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import { isPostgres } from '../../db/connect.ts';
import type { DB } from '../../db/schema.ts';

/**
 * A Kysely query of fixed shape, built and compiled once per store kind (and per `key`, for a shape
 * that depends on something other than the values, such as the columns of an insert) and then only
 * rebound: building and compiling a statement costs Kysely ≈20–50 µs a call, several times what
 * SQLite takes to run a small one, and the public registration runs several on its hot path.
 *
 * `build` receives a unique placeholder for each argument and must use every one as a bound value
 * only (never to decide the statement's shape: no `$if`, lists or limits from it); each placeholder
 * is found by identity among the compiled parameters, wherever and however often it appears.
 */
export function compiledOnce<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): (db: Kysely<DB>, args: A, key?: string) => Promise<QueryResult<R>> {
  const cache = new Map<string, { sql: string; parameters: readonly unknown[]; at: number[][] }>();
  const placeholders = Array.from({ length: arity }, (_, i) => Symbol(`arg${i}`));
  return (db, args, key = '') => {
    const cacheKey = `${isPostgres(db) ? 'pg' : 'sqlite'}:${key}`;
    let c = cache.get(cacheKey);
    if (!c) {
      const q = build(db, ...(placeholders as unknown as A)).compile();
      const at = placeholders.map((s) => q.parameters.flatMap((p, i) => (p === s ? [i] : [])));
      if (at.some((list) => list.length === 0))
        throw new Error(`a compiled-once query does not bind all its arguments: ${q.sql}`);
      c = { sql: q.sql, parameters: q.parameters, at };
      cache.set(cacheKey, c);
    }
    const parameters = [...c.parameters];
    for (let k = 0; k < c.at.length; k++) for (const i of c.at[k]) parameters[i] = args[k];
    return db.executeQuery<R>(CompiledQuery.raw(c.sql, parameters));
  };
}
