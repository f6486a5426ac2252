import { z } from 'zod';
import type { AnyOperation, Param } from './table.ts';
import { authText, GLOBAL_PARAMS, isRequired, paramJsonSchema, tokenParam } from './describe.ts';

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
    // (Required or not, the token may come as a bearer header instead: never a required parameter.)
    const parameters = [
      { name: 'tokenID', in: 'query', required: false, description: tokenParam(op).description, schema: { type: 'string' } }, // prettier-ignore
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
        '400': errorResponse('a parameter is missing, empty, invalid or not one the operation takes'),
        '401': errorResponse('missing or unknown token'),
        '403': errorResponse('scope or level too low'),
        '404': errorResponse('object not found'),
        '405': errorResponse('a method the operation does not take (Allow names those it takes)'),
        ...(op.writes ? { '409': errorResponse('the state does not allow it (taken, already done, pending)') } : {}),
        ...(op.methods.includes('POST')
          ? {
              '413': errorResponse('the body is too large'),
              '415': errorResponse('a body that is not application/x-www-form-urlencoded'),
            }
          : {}),
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
              // A name the operation does not take is refused (400), not ignored.
              additionalProperties: op.patternParams?.param.place === 'body',
            },
          },
        },
      };
    }
    // A public operation takes a token when given ({}: none at all is fine too).
    operation.security = op.auth.kind === 'public' ? [{}, { bearer: [] }, { tokenID: [] }] : [{ bearer: [] }, { tokenID: [] }]; // prettier-ignore
    // One object per method, each with an operationId of its own (OpenAPI wants them unique): the
    // operation's name for its main method (POST for a write, GET for a read), `<name>.<method>` for
    // the other. A GET carries no body: its body parameters are the POST's.
    const main = op.methods.includes(op.writes ? 'POST' : 'GET') ? (op.writes ? 'POST' : 'GET') : op.methods[0];
    paths[`/${op.name.replaceAll('.', '/')}`] = Object.fromEntries(
      op.methods.map((m) => {
        const { requestBody, ...rest } = operation;
        const own = m === 'GET' && op.methods.includes('POST') ? rest : { ...rest, requestBody };
        if (own.requestBody === undefined) delete own.requestBody;
        return [m.toLowerCase(), { ...own, operationId: m === main ? op.name : `${op.name}.${m.toLowerCase()}` }];
      }),
    );
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
