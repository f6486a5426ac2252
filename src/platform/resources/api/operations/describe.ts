import { defineOperation } from '../../../kernel/table.ts';
import { describeOperations } from '../../../kernel/describe.ts';

/** Spec §4.1. The answer is the operation table itself: one row per operation. */
export default defineOperation({
  name: 'api.describe',
  summary:
    'Describes every operation: methods, parameters (place, type, required; the whole list: a name outside it, or outside format, sandbox and action, is refused), auth rule, origin.',
  methods: ['GET'],
  params: {},
  auth: { kind: 'token' },
  writes: false,
  async handler() {
    // Imported lazily: the table imports this file, so a static import would be circular.
    const { operations } = await import('../../../catalog/index.ts');
    return describeOperations(operations);
  },
});
