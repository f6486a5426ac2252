import { defineOperation } from '../../../../kernel/table.ts';
import { TOOL_SWITCHES } from '../../repository.ts';
import { TOOL_EDIT_KEYS } from './edit.ts';

/** Spec §4.3. Every tool switch the platform has, and whether company.tool.edit may change it. */
export default defineOperation({
  name: 'company.tool.available',
  summary: 'Lists the tools the platform offers (tool, editable).',
  methods: ['GET'],
  params: {},
  auth: { kind: 'token' },
  writes: false,
  async handler() {
    const editable = new Set<string>(TOOL_EDIT_KEYS);
    return TOOL_SWITCHES.map((tool) => ({ tool, editable: editable.has(tool) ? 1 : 0 }));
  },
});
