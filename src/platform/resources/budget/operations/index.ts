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
  type Context,
} from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { budgetFindWire, budgetLogWire, budgetNameWire, budgetWire } from '../../../../shared/wire/budget.ts';
import { notFound } from '../../../errors.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import {
  BUDGET_EDIT_KEYS,
  budgetType,
  category,
  date,
  description,
  price,
  status,
  supplier,
  title,
} from '../fields.ts';
import {
  budgetByID,
  budgetKnown,
  budgetPage,
  budgetRecord,
  insertBudget,
  insertLog,
  logPage,
  logText,
  namesInUse,
  removeBudget,
  totals,
  updateBudget,
  type BudgetRow,
} from '../repository.ts';

// Budgets (spec §4.7, §2.6; issue 17; docs/api/budgets.md): an event's expenses, for its admins only.
// Every change of an expense — its creation, each edit, its removal — writes a budget log row in the
// write's own transaction: the history and the change cannot disagree.

const admins = { kind: 'event', levels: LEVEL.ADMIN } as const;
const byBudget = { kind: 'event', levels: LEVEL.ADMIN, via: ['budgetID'] } as const;

const log = (ctx: Context, eventID: number, budgetID: number, key: string, oldValue: string, newValue: string) =>
  insertLog(ctx.db, { eventID, budgetID, personID: ctx.caller!.personID, key, oldValue, newValue, date: ctx.now });

const budgetCreate = defineOperation({
  name: 'budget.create',
  summary: 'Adds an expense to the budget of an event (admins); the budget log records who added it.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    title: b(title, 'what the expense is'),
    description: b(description, 'details (plain text)'),
    type: b(budgetType, '`raw` (generic), `totalLodging`, `totalFlight` or `totalShuttle`; cannot be edited'),
    category: bOpt(category, 'free grouping, e.g. Catering (default none)'),
    supplier: bOpt(supplier, 'who is paid (default none)'),
    status: bOpt(status, 'free status, e.g. quoted, approved, paid (default none)'),
    price: b(price, 'decimal, at least 0, at most 2 decimals, e.g. 1234.50'),
    date: b(date, 'Unix seconds'),
  },
  auth: admins,
  writes: true,
  answer: budgetWire,
  async handler(ctx, p) {
    const row = await insertBudget(ctx.db, {
      eventID: p.eventID,
      title: p.title,
      description: p.description,
      type: p.type,
      category: p.category ?? '',
      supplier: p.supplier ?? '',
      status: p.status ?? '',
      price: p.price,
      date: p.date,
    });
    await log(ctx, p.eventID, row.budgetID, 'create', '', row.title);
    return [budgetRecord(row)];
  },
});

const budgetEdit = defineOperation({
  name: 'budget.edit',
  summary: `Edits one field of an expense (admins); the budget log records the old and new value. Keys: ${keyList(BUDGET_EDIT_KEYS)}.`,
  methods: ['POST'],
  params: {
    budgetID: q(id, 'the expense'),
    ...editParams(5000, 'new value; empty clears description, category, supplier and status'),
  },
  auth: byBudget,
  writes: true,
  answer: budgetWire,
  async handler(ctx, p) {
    const { column, value } = parseEdit(BUDGET_EDIT_KEYS, p.key, p.value);
    const before = (await budgetByID(ctx.db, p.budgetID))!;
    const oldValue = logText(column, before[column as keyof typeof before]);
    const newValue = logText(column, value);
    if (oldValue !== newValue) {
      await updateBudget(ctx.db, p.budgetID, column, value);
      await log(ctx, before.eventID, p.budgetID, p.key, oldValue, newValue);
    }
    return [budgetRecord((await budgetByID(ctx.db, p.budgetID))!)];
  },
});

const budgetRemove = defineOperation({
  name: 'budget.remove',
  summary: 'Removes an expense (admins) and answers it as it was; its budget log stays.',
  methods: ['GET'],
  params: { budgetID: q(id, 'the expense') },
  auth: byBudget,
  writes: true,
  answer: budgetWire,
  async handler(ctx, p) {
    const row = (await budgetByID(ctx.db, p.budgetID))!;
    await removeBudget(ctx.db, p.budgetID);
    await log(ctx, row.eventID, row.budgetID, 'remove', row.title, '');
    return [budgetRecord(row)];
  },
});

const budgetGet = defineOperation({
  name: 'budget.get',
  summary: 'Reads one expense (admins).',
  methods: ['GET'],
  params: { budgetID: q(id, 'the expense') },
  auth: byBudget,
  writes: false,
  answer: budgetWire,
  async handler(ctx, p) {
    const row = await budgetByID(ctx.db, p.budgetID);
    if (!row) throw notFound('budget');
    return [budgetRecord(row)];
  },
});

const budgetFind = defineOperation({
  name: 'budget.find',
  summary:
    "Lists an event's expenses by date (admins; format=excel exports them), each with the totals of its category, its type and the whole budget.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    type: qOpt(budgetType, 'only this type (Podium extension)'),
    category: qOpt(category, 'only this category (Podium extension)'),
    supplier: qOpt(supplier, 'only this supplier (Podium extension)'),
    status: qOpt(status, 'only this status (Podium extension)'),
    query: qOpt(text(200), 'title or description contains (any case; Podium extension)'),
    ...pageParams,
  },
  auth: admins,
  writes: false,
  answer: budgetFindWire,
  async handler(ctx, p) {
    const filter = { type: p.type, category: p.category, supplier: p.supplier, status: p.status, query: p.query };
    const [page, sums] = await Promise.all([budgetPage(ctx.db, p.eventID, filter, pageOf(p)), totals(ctx.db, p.eventID)]); // prettier-ignore
    const shape = (rows: BudgetRow[]) =>
      rows.map((r) => ({
        ...budgetRecord(r),
        categoryTotal: sums.byCategory.get(r.category) ?? '0.00',
        typeTotal: sums.byType.get(r.type) ?? '0.00',
        total: sums.total,
      }));
    return Array.isArray(page) ? shape(page) : { rows: shape(page.rows), total: page.total };
  },
});

const names = (column: 'category' | 'supplier', name: string, what: string) =>
  defineOperation({
    name,
    summary: `Lists the ${what} the event's expenses name (admins), by name, with how many expenses and their total.`,
    methods: ['GET'],
    params: { eventID: q(id, 'the event') },
    auth: admins,
    writes: false,
    answer: budgetNameWire,
    handler: (ctx, p) => namesInUse(ctx.db, p.eventID, column),
  });

const budgetLogFind = defineOperation({
  name: 'budget.log.find',
  summary:
    'Lists the history of an expense, newest first (admins): who changed which field from what to what, and when; it outlives the expense.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    budgetID: q(id, 'the expense (a removed one too)'),
    ...pageParams,
  },
  auth: admins,
  writes: false,
  answer: budgetLogWire,
  async handler(ctx, p) {
    if (!(await budgetKnown(ctx.db, p.eventID, p.budgetID))) throw notFound('budget');
    return logPage(ctx.db, p.eventID, p.budgetID, pageOf(p));
  },
});

/** Budgets (issue 17, docs/api/budgets.md). */
export const budgetOperations: readonly AnyOperation[] = [
  budgetCreate,
  budgetEdit,
  budgetRemove,
  budgetGet,
  budgetFind,
  names('category', 'budget.getCategories', 'categories'),
  names('supplier', 'budget.getSuppliers', 'suppliers'),
  budgetLogFind,
];
