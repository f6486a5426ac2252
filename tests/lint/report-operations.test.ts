import { describe, expect, it } from 'vitest';
import { operations } from '../../src/platform/catalog/index.ts';
import { REPORT_OPERATIONS } from '../../src/platform/catalog/reports.ts';
import { isReportOperation } from '../../src/platform/kernel/table.ts';

// The report job loads the one list it runs (src/platform/catalog/reports.ts), not the operation table:
// that map must name exactly the table's report operations (format=excel-daemon's lists), each loading
// the table's own operation (the same handler, parameters and rule). A new paging .find fails here
// until it is added there.

describe('the report operations the job loads alone', () => {
  const table = operations.filter(isReportOperation);

  it('are exactly the report operations of the table', () => {
    expect(Object.keys(REPORT_OPERATIONS).sort()).toEqual(table.map((op) => op.name).sort());
  });

  it.each(table.map((op) => [op.name, op] as const))('%s loads the table’s own operation', async (name, op) => {
    const loaded = await REPORT_OPERATIONS[name]!();
    expect(loaded.name).toBe(name);
    expect(loaded.handler).toBe(op.handler);
    expect(loaded.params).toBe(op.params);
    expect(loaded.auth).toEqual(op.auth);
  });
});
