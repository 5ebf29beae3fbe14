import type { z } from 'zod';
import { errorCodes, type FastifyInstance } from 'fastify';
import type { ValidationIssue } from '@leadfinder/wire';
import { RequestValidationError } from './errors.js';

/** Bodies above this are refused with 413 before they are read. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/**
 * POST /v1/searches may carry up to 10,000 `exclude` entries (domains, names, run ids): 1 MiB holds them
 * at up to about 100 bytes each. The entry counts themselves are checked when the search is accepted.
 */
export const SEARCH_BODY_LIMIT_BYTES = 1024 * 1024;

type Where = 'body' | 'query' | 'path';

/**
 * Parse `input` with a wire schema; on failure throw the FastAPI-shaped 422 (operator contract: `loc`
 * starts with `body`, `query` or `path`; one item per failed field, pydantic's `type` and `msg`).
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: Where): z.output<S> {
  if (where === 'body' && input === undefined) {
    throw new RequestValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  }
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new RequestValidationError(toFastApiIssues(result.error.issues, where));
}

export function toFastApiIssues(issues: readonly z.core.$ZodIssue[], where: Where): ValidationIssue[] {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    const key = JSON.stringify(loc);
    // pydantic reports one error per field; zod can stack several (e.g. safe-int and max).
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ loc, ...describeIssue(issue) });
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): { msg: string; type: string } {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return { msg: 'Field required', type: 'missing' };
      switch (issue.expected) {
        case 'string':
          return { msg: 'Input should be a valid string', type: 'string_type' };
        case 'boolean':
          return { msg: 'Input should be a valid boolean', type: 'bool_type' };
        case 'int':
          return typeof issue.input === 'number'
            ? { msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float' }
            : { msg: 'Input should be a valid integer', type: 'int_type' };
        // Every plain number field of the request bodies is an integer (`target`).
        case 'number':
          return { msg: 'Input should be a valid integer', type: 'int_type' };
        case 'object':
          return { msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' };
        case 'array':
          return { msg: 'Input should be a valid list', type: 'list_type' };
        default:
          return { msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type` };
      }
    }
    case 'too_small':
      if (issue.origin === 'string') {
        const n = Number(issue.minimum);
        return { msg: `String should have at least ${n} character${n === 1 ? '' : 's'}`, type: 'string_too_short' };
      }
      return { msg: `Input should be greater than or equal to ${String(issue.minimum)}`, type: 'greater_than_equal' };
    case 'too_big':
      if (issue.origin === 'string') {
        const n = Number(issue.maximum);
        return { msg: `String should have at most ${n} character${n === 1 ? '' : 's'}`, type: 'string_too_long' };
      }
      return { msg: `Input should be less than or equal to ${String(issue.maximum)}`, type: 'less_than_equal' };
    case 'invalid_format':
      return { msg: `String should match ${issue.format}`, type: 'string_pattern_mismatch' };
    case 'invalid_union':
      return { msg: 'Input should be a valid number or decimal string', type: 'union_type' };
    case 'invalid_value':
      return { msg: `Input should be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`, type: 'literal_error' };
    default:
      return { msg: `Value error, ${issue.message}`, type: 'value_error' };
  }
}

/**
 * JSON is the only body type accepted (anything else: 415). An empty body reads as "no body" so a bodiless
 * POST with a JSON content type (the stop call) is fine; malformed JSON is the FastAPI `json_invalid` 422.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new RequestValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]), undefined);
      }
    },
  );
}

/**
 * For routes whose contract is "no body" (the stop call, spec §4.4): an empty body is accepted under any
 * content type or none, since clients send whatever their HTTP library defaults to. A non-empty body
 * that is not JSON is still 415, as everywhere else. Register inside the route's own encapsulated scope.
 */
export function acceptEmptyBodyOfAnyType(scope: FastifyInstance): void {
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (bytes === 0) return done(null, undefined);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type'] ?? ''), undefined);
  });
}
