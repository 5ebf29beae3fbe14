/**
 * A small JSON Schema (2020-12 subset) checker for the OpenAPI test: enough of the keywords zod emits
 * (type, properties, required, additionalProperties, items, enum, const, anyOf/oneOf/allOf, bounds,
 * pattern, $ref into components). Returns the list of problems, empty when the value conforms.
 */
type Schema = Record<string, unknown>;

export function validate(value: unknown, schema: Schema, root: Schema, path = '$'): string[] {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce<unknown>((o, k) => (o as Schema)?.[k], root);
    if (!target) return [`${path}: unresolved ${schema.$ref}`];
    return validate(value, target as Schema, root, path);
  }
  const errors: string[] = [];
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) errors.push(`${path}: expected const ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) errors.push(`${path}: not in enum`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => hasType(value, t))) return [...errors, `${path}: expected ${types.join('|')}, got ${JSON.stringify(value)?.slice(0, 40)}`];
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${path}: too short`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errors.push(`${path}: too long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${path}: pattern ${schema.pattern}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${path}: above maximum`);
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    value.forEach((v, i) => errors.push(...validate(v, schema.items as Schema, root, `${path}[${i}]`)));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) errors.push(`${path}.${r}: required`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) errors.push(...validate(v, props[k], root, `${path}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${path}.${k}: not allowed`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        errors.push(...validate(v, schema.additionalProperties as Schema, root, `${path}.${k}`));
      }
    }
  }
  for (const s of (schema.allOf ?? []) as Schema[]) errors.push(...validate(value, s, root, path));
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => validate(value, s as Schema, root, path).length === 0)) {
    errors.push(`${path}: matches no anyOf branch`);
  }
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter((s) => validate(value, s as Schema, root, path).length === 0).length !== 1) {
    errors.push(`${path}: does not match exactly one oneOf branch`);
  }
  return errors;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null': return value === null;
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
    default: return typeof value === type;
  }
}
