// Budgets (spec §2.6 Budget, Budget log; docs/api/budgets.md). Every value is a string on the wire.

import { z } from 'zod';
import { id, s } from './values.ts';

/** An expense (budget.create, .edit, .remove, .get). */
export const budgetWire = z.object({
  budgetID: id,
  eventID: id,
  title: s,
  description: s,
  /** `raw`, `totalLodging`, `totalFlight` or `totalShuttle`. */
  type: s,
  category: s,
  supplier: s,
  status: s,
  /** A decimal with two places, e.g. `1234.50` (stored in minor units: no float drift). */
  price: s,
  /** Unix seconds. */
  date: s,
});
export type Budget = z.infer<typeof budgetWire>;

/** An expense as budget.find lists it: with the totals of its category, its type and the whole event. */
export const budgetFindWire = budgetWire.extend({
  /** Sum of the prices of the event's expenses of this category ('' category: those without one). */
  categoryTotal: s,
  /** Sum of the prices of the event's expenses of this type. */
  typeTotal: s,
  /** Sum of the prices of every expense of the event. */
  total: s,
});

/** A category or supplier in use (budget.getCategories, budget.getSuppliers). */
export const budgetNameWire = z.object({
  eventID: id,
  name: s,
  /** How many expenses name it. */
  expenses: s,
  /** Sum of their prices. */
  total: s,
});

/** One change of an expense (budget.log.find). */
export const budgetLogWire = z.object({
  budgetLogID: id,
  eventID: id,
  budgetID: id,
  /** Who made the change. */
  personID: id,
  personName: s,
  /** The field changed; `create` and `remove` for the expense's creation and removal. */
  key: s,
  oldValue: s,
  newValue: s,
  /** Unix seconds. */
  date: s,
});
