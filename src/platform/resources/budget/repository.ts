import { sql, type Kysely, type Selectable } from 'kysely';
import type { BudgetLogTable, BudgetTable, DB } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { contains, lowerOf } from '../hotsite/content.ts';
import { formatPrice, type BudgetType } from './fields.ts';

// The store of expenses and their history (migration 0016). Prices are minor units (cents); sums are
// read as decimal text and formatted with BigInt, so no total ever passes through a float.

export type BudgetRow = Selectable<BudgetTable>;
export type NewBudget = Omit<BudgetRow, 'budgetID'>;

const num = (r: BudgetRow): BudgetRow => ({ ...r, budgetID: Number(r.budgetID), eventID: Number(r.eventID), price: Number(r.price), date: Number(r.date) }); // prettier-ignore

/**
 * An expense as answered, the price in decimal (the envelope makes every value a string; the ids stay
 * numbers here so the change log reads the new expense's id from a create's answer).
 */
export function budgetRecord(r: BudgetRow) {
  return {
    budgetID: r.budgetID,
    eventID: r.eventID,
    title: r.title,
    description: r.description,
    type: r.type,
    category: r.category,
    supplier: r.supplier,
    status: r.status,
    price: formatPrice(r.price),
    date: String(r.date),
  };
}

/** The text a budget log row keeps for a column's value (as the API shows it). */
export const logText = (column: string, value: unknown): string =>
  column === 'price' ? formatPrice(value as number) : String(value ?? '');

export async function insertBudget(db: Kysely<DB>, values: NewBudget): Promise<BudgetRow> {
  return num(await db.insertInto('budget').values(values).returningAll().executeTakeFirstOrThrow());
}

export async function budgetByID(db: Kysely<DB>, budgetID: number): Promise<BudgetRow | undefined> {
  const row = await db.selectFrom('budget').selectAll().where('budgetID', '=', budgetID).executeTakeFirst();
  return row && num(row);
}

export async function updateBudget(db: Kysely<DB>, budgetID: number, column: string, value: unknown): Promise<void> {
  await db
    .updateTable('budget')
    .set({ [column]: value } as never)
    .where('budgetID', '=', budgetID)
    .execute();
}

export async function removeBudget(db: Kysely<DB>, budgetID: number): Promise<void> {
  await db.deleteFrom('budget').where('budgetID', '=', budgetID).execute();
}

export async function insertLog(db: Kysely<DB>, row: Omit<Selectable<BudgetLogTable>, 'budgetLogID'>): Promise<void> {
  await db.insertInto('budgetLog').values(row).execute();
}

export interface BudgetFilter {
  readonly type?: BudgetType;
  readonly category?: string;
  readonly supplier?: string;
  readonly status?: string;
  /** Part of the title or description, in any case. */
  readonly query?: string;
}

/** A sum column as exact decimal text (SQLite answers an integer, PostgreSQL a numeric as text). */
const sumOf = sql<string>`cast(coalesce(sum(${sql.ref('price')}), 0) as text)`;

/** Totals of the event's expenses: by category, by type, and of all. */
export async function totals(db: Kysely<DB>, eventID: number) {
  const group = async (column: 'category' | 'type') =>
    new Map(
      (
        await db
          .selectFrom('budget')
          .select([column, sumOf.as('total')])
          .where('eventID', '=', eventID)
          .groupBy(column)
          .execute()
      ).map((r) => [String(r[column]), formatPrice(r.total)]),
    );
  const [byCategory, byType] = await Promise.all([group('category'), group('type')]);
  const all = await db.selectFrom('budget').select(sumOf.as('total')).where('eventID', '=', eventID).executeTakeFirstOrThrow(); // prettier-ignore
  return { byCategory, byType, total: formatPrice(all.total) };
}

/** One page of the event's expenses, by date then id. */
export async function budgetPage(
  db: Kysely<DB>,
  eventID: number,
  f: BudgetFilter,
  page: Page,
): Promise<Paged<BudgetRow>> {
  let q = db.selectFrom('budget').selectAll().where('eventID', '=', eventID);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  if (f.category !== undefined) q = q.where('category', '=', f.category);
  if (f.supplier !== undefined) q = q.where('supplier', '=', f.supplier);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  const text = f.query;
  if (text !== undefined) q = q.where((e) => e.or([contains('title', text), contains('description', text)]));
  return readPage(db, q.orderBy('date').orderBy('budgetID'), page, (rows) => rows.map(num));
}

/** The categories or suppliers the event's expenses name ('' is no name, not listed), by name. */
export async function namesInUse(db: Kysely<DB>, eventID: number, column: 'category' | 'supplier') {
  const rows = await db
    .selectFrom('budget')
    .select([column, (e) => e.fn.countAll<number>().as('n'), sumOf.as('total')])
    .where('eventID', '=', eventID)
    .where(column, '!=', '')
    .groupBy(column)
    .orderBy(lowerOf(column))
    .orderBy(column)
    .execute();
  return rows.map((r) => ({
    eventID: String(eventID),
    name: String(r[column]),
    expenses: String(r.n),
    total: formatPrice(r.total),
  }));
}

/** Whether the event has, or had, this expense (its log outlives it). */
export async function budgetKnown(db: Kysely<DB>, eventID: number, budgetID: number): Promise<boolean> {
  const [live, logged] = await Promise.all([
    db.selectFrom('budget').select('budgetID').where('eventID', '=', eventID).where('budgetID', '=', budgetID).executeTakeFirst(), // prettier-ignore
    db.selectFrom('budgetLog').select('budgetID').where('eventID', '=', eventID).where('budgetID', '=', budgetID).limit(1).executeTakeFirst(), // prettier-ignore
  ]);
  return live !== undefined || logged !== undefined;
}

/** The history of one expense, newest first, with who made each change. */
export function logPage(db: Kysely<DB>, eventID: number, budgetID: number, page: Page) {
  const q = db
    .selectFrom('budgetLog')
    .leftJoin('person', 'person.personID', 'budgetLog.personID')
    .select([
      'budgetLog.budgetLogID',
      'budgetLog.eventID',
      'budgetLog.budgetID',
      'budgetLog.personID',
      'person.name as personName',
      'budgetLog.key',
      'budgetLog.oldValue',
      'budgetLog.newValue',
      'budgetLog.date',
    ])
    .where('budgetLog.eventID', '=', eventID)
    .where('budgetLog.budgetID', '=', budgetID)
    .orderBy('budgetLog.date', 'desc')
    .orderBy('budgetLog.budgetLogID', 'desc');
  return readPage(db, q, page, (rows) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? '' : String(v)]))),
  );
}
