import { z } from 'zod';
import type { AnyOperation, Param } from './table.ts';
import { authText, GLOBAL_PARAMS, isRequired, paramJsonSchema } from './describe.ts';

const errorResponse = (description: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string', pattern: '^\\d{3} .+$' } } },
});

/** The envelope (spec §1.2) of an operation's answer: its rows are the operation's wire row. */
function envelopeSchema(answer: z.ZodObject | undefined) {
  return {
    type: 'object',
    required: ['count', 'data'],
    properties: {
      count: { type: 'string', description: 'number of items in data' },
      total: { type: 'string', description: 'all matching items; only with paginated=1' },
      data: { type: 'array', items: answer ? rowSchema(answer) : { type: 'object', additionalProperties: true } },
    },
  };
}

const rowSchemas = new WeakMap<z.ZodObject, object>();
/** JSON Schema of a wire row as the platform sends it (the input side: a field a shape leaves out is optional). */
function rowSchema(answer: z.ZodObject): object {
  let schema = rowSchemas.get(answer);
  if (!schema) {
    const { $schema: _, ...rest } = z.toJSONSchema(answer, { io: 'input', unrepresentable: 'any' });
    rowSchemas.set(answer, (schema = rest));
  }
  return schema;
}

/** OpenAPI 3.1 document of the RESTful style, generated from the same table as the dispatcher. */
export function openApiDocument(operations: readonly AnyOperation[]) {
  const paths: Record<string, unknown> = {};
  for (const op of operations) {
    const entries = Object.entries(op.params as Record<string, Param>);
    const parameters = [
      ...(op.auth.kind === 'public'
        ? []
        : [{ name: 'tokenID', in: 'query', required: false, schema: { type: 'string' } }]),
      ...GLOBAL_PARAMS.map((g) => ({
        name: g.name,
        in: 'query',
        required: false,
        description: g.description,
        schema: { type: 'string' },
      })),
      ...entries
        .filter(([, p]) => p.place === 'query')
        .map(([name, p]) => ({
          name,
          in: 'query',
          required: isRequired(op, name, p),
          description: p.description,
          schema: paramJsonSchema(p),
        })),
    ];
    const body = entries.filter(([, p]) => p.place === 'body');
    const operation: Record<string, unknown> = {
      operationId: op.name,
      summary: op.summary,
      description:
        `RPC style: /?action=${op.name}. Auth: ${authText(op.auth)}.${op.extension ? ' Podium extension.' : ''}` +
        (op.patternParams ? ` Also query parameters named like ${op.patternParams.example}.` : ''),
      tags: [op.name.split('.')[0]],
      'x-podium-origin': op.extension ? 'extension' : 'spec',
      'x-podium-variants': op.variants ?? [],
      parameters,
      responses: {
        '200': op.stream
          ? {
              // Server-Sent Events: `id:` the change id, `event:` the message's name, `data:` one row as JSON.
              description: 'a stream of Server-Sent Events whose data are rows of this schema',
              content: { 'text/event-stream': { schema: op.answer ? rowSchema(op.answer) : { type: 'string' } } },
            }
          : {
              description: 'the envelope',
              content: { 'application/json': { schema: envelopeSchema(op.answer) } },
            },
        ...(op.stream ? { '503': errorResponse('too many open streams, or the server is shutting down') } : {}),
        '400': errorResponse('a parameter is missing, empty or invalid'),
        '401': errorResponse('missing or unknown token'),
        '403': errorResponse('scope or level too low'),
        '404': errorResponse('object not found'),
        '429': errorResponse('rate limited'),
      },
    };
    if (body.length > 0) {
      operation.requestBody = {
        required: body.some(([name, p]) => isRequired(op, name, p)),
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: Object.fromEntries(
                body.map(([name, p]) => [name, { ...paramJsonSchema(p), description: p.description }]),
              ),
              required: body.filter(([name, p]) => isRequired(op, name, p)).map(([name]) => name),
            },
          },
        },
      };
    }
    if (op.auth.kind !== 'public') operation.security = [{ bearer: [] }, { tokenID: [] }];
    paths[`/${op.name.replaceAll('.', '/')}`] = Object.fromEntries(op.methods.map((m) => [m.toLowerCase(), operation]));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Podium platform API',
      version: '0.1.0',
      description: 'See docs/api.md. Every operation is also reachable as /?action=<name>.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        tokenID: { type: 'apiKey', in: 'query', name: 'tokenID' },
      },
    },
    paths,
  };
}
