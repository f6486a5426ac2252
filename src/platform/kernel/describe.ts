import { z } from 'zod';
import { LEVEL, type AnyOperation, type Auth, type Param } from './table.ts';
import { isEditOperation } from '../edit.ts';

/** Parameters every operation understands (spec §1.4, §5.1). */
export const GLOBAL_PARAMS = [
  { name: 'format', place: 'query', type: 'json|excel|excel-daemon', description: 'output format (spec §1.4)' },
  { name: 'sandbox', place: 'query', type: '0|1', description: '1 runs the call and rolls it back (spec §1.4)' },
] as const;

export function authText(auth: Auth): string {
  switch (auth.kind) {
    case 'company':
      return `company:${auth.role}`;
    case 'event': {
      const names = Object.entries(LEVEL)
        .filter(([, bit]) => auth.levels & bit)
        .map(([n]) => n.toLowerCase());
      return `event:${names.join('|')}`;
    }
    default:
      return auth.kind;
  }
}

/** The JSON Schema of what a parameter accepts on the wire (before transforms). */
export function paramJsonSchema(p: Param): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(p.schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return schema;
}

function typeText(p: Param): string {
  const s = paramJsonSchema(p);
  if (Array.isArray(s.enum)) return (s.enum as string[]).join('|');
  if (typeof s.pattern === 'string') return `string /${s.pattern}/`;
  return typeof s.type === 'string' ? s.type : 'string';
}

/**
 * Required unless optional or part of a variant (then the variant decides). An edit's `value` is
 * required even where it may be empty: it must be sent, and an empty one clears (docs/api.md "Edits").
 */
export function isRequired(op: AnyOperation, name: string, p: Param): boolean {
  if (name === 'value' && isEditOperation(op)) return true;
  return !p.optional && !op.variants?.some((v: readonly string[]) => v.includes(name));
}

/** The token every operation takes (Q tokenID or a bearer header): required, or taken when given. */
export function tokenParam(op: AnyOperation): { required: boolean; description: string } {
  if (op.auth.kind !== 'public') return { required: true, description: 'access token (or Authorization: Bearer)' };
  // Whether a stale token is ignored here or answered 401 (Operation.staleTokenIgnored).
  return {
    required: false,
    description: op.staleTokenIgnored
      ? 'access token, when the caller has one; one that is not valid is ignored'
      : 'access token, when the caller has one; one that is not valid → 401',
  };
}

/** api.describe's rows: the table itself, in the envelope's string-only shape. */
export function describeOperations(operations: readonly AnyOperation[]) {
  return operations.map((op) => {
    const parameters = Object.entries(op.params as Record<string, Param>).map(([name, p]) => ({
      name,
      place: p.place,
      type: typeText(p),
      required: isRequired(op, name, p) ? 1 : 0,
      description: p.description,
    }));
    const token = tokenParam(op);
    parameters.unshift({ name: 'tokenID', place: 'query', type: 'string', required: token.required ? 1 : 0, description: token.description }); // prettier-ignore
    return {
      name: op.name,
      summary: op.summary,
      methods: op.methods.join(','),
      origin: op.extension ? 'extension' : 'spec',
      auth: authText(op.auth),
      writes: op.writes ? 1 : 0,
      // 1: callable from any web page (Access-Control-Allow-Origin: *, never with credentials).
      cors: op.cors ? 1 : 0,
      // 1: an anonymous answer is cached and carries an ETag and Cache-Control: public (docs/api.md).
      cachePublic: op.cachePublic ? 1 : 0,
      // 1: the answer is a text/event-stream of changes that stays open (docs/api.md "Following changes").
      stream: op.stream ? 1 : 0,
      variants: (op.variants ?? []).map((v: readonly string[]) => ({ required: v.join(',') })),
      parameters,
      // Parameters named by a pattern (e.g. feedback_<feedbackID>), each optional.
      patternParameters: op.patternParams
        ? [
            {
              name: op.patternParams.example,
              place: op.patternParams.param.place,
              type: typeText(op.patternParams.param),
              description: op.patternParams.param.description,
            },
          ]
        : [],
    };
  });
}
