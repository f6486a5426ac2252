import { defineOperation } from '../../../kernel/table.ts';

/**
 * Podium extension: a health check that touches no store, answering the server's clock (Unix
 * seconds) so clients can detect clock skew. Also the benchmark of the bare dispatcher.
 */
export default defineOperation({
  name: 'api.ping',
  summary: 'Answers the server time; touches no store.',
  methods: ['GET', 'POST'],
  params: {},
  auth: { kind: 'public' },
  extension: true,
  writes: false,
  handler: async (ctx) => [{ pong: 1, time: ctx.now }],
});
