// A route's query parameters, declared once: the typebox schema the OpenAPI document lists and every request is
// checked against, the text of the 400 a bad value gets, and what the handler sees: integers as numbers, clamped
// into the range the spec clamps, the default where one is declared. The handler's query type is made from the
// declaration (QueryOf), so a handler reads `query.limit` as a number without restating the range or casting.
// An empty value counts as absent; parameters a route does not know, or that another one overrides, are ignored.
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { assert } from '../../engine/assert.js';
import { ApiError } from '../apiError.js';

interface ParamBase<V> {
  description: string;
  schema: TSchema;
  /** The 400 text when the value does not fit the schema, made from the parameter's name unless given. */
  error: string | ((name: string) => string);
  /** A parameter whose presence makes this one ignored, unchecked (a search ignores the cursor, spec 4.2). */
  ignoredWith?: string;
  /** What the handler sees when the parameter is absent; its type is the handler's type of the parameter. */
  fallback: V;
}

export interface IntegerParam<V extends number | undefined = number | undefined> extends ParamBase<V> {
  kind: 'integer';
  /** The range a value out of it is clamped into (the spec's limits); null: refused by the schema instead. */
  clamp: readonly [min: number, max: number] | null;
}

export interface TextParam<V extends string | undefined = string | undefined> extends ParamBase<V> {
  kind: 'text';
}

export type QueryParam = IntegerParam | TextParam;

/** A route's parameters by name, in the order the OpenAPI document lists them. */
export type QuerySpec = Readonly<Record<string, QueryParam>>;

/** What a handler reads: each declared parameter as its declaration makes it. */
export type QueryOf<Q extends QuerySpec> = { readonly [K in keyof Q]: Q[K]['fallback'] };

const INTEGER_TEXT = /^-?\d{1,15}$/;

/** An integer refused below `minimum` (when given); absent: `default` when given, else undefined. */
export function integerParam(description: string, options: { minimum?: number; default: number }): IntegerParam<number>;
export function integerParam(description: string, options?: { minimum?: number }): IntegerParam<number | undefined>;
export function integerParam(
  description: string,
  options: { minimum?: number; default?: number } = {},
): IntegerParam<number | undefined> {
  const { minimum, default: fallback } = options;
  const error = (name: string) =>
    minimum === undefined ? `${name} must be an integer` : `${name} must be an integer, ${minimum} or more`;
  const schema = Type.Integer(minimum === undefined ? {} : { minimum });
  return { kind: 'integer', description, schema, error, clamp: null, fallback };
}

/** An integer clamped into [min, max] (the spec's limits), `fallback` when absent (given one). */
export function clampedParam(description: string, min: number, max: number, fallback: number): IntegerParam<number>;
export function clampedParam(description: string, min: number, max: number): IntegerParam<number | undefined>;
export function clampedParam(
  description: string,
  min: number,
  max: number,
  fallback?: number,
): IntegerParam<number | undefined> {
  assert(
    min <= max && (fallback === undefined || (fallback >= min && fallback <= max)),
    'a clamp range holds its default',
  );
  const error = (name: string) => `${name} must be an integer`;
  return { kind: 'integer', description, schema: Type.Integer(), error, clamp: [min, max], fallback };
}

/** A page's `limit` (api/apiLimits.ts, PAGE_ROWS): 1 to its most rows, clamped, its default when absent. */
export function rowsParam(rows: { max: number; fallback: number }): IntegerParam<number> {
  const { max, fallback } = rows;
  return clampedParam(`rows, 1 to ${max} (out of range is clamped), default ${fallback}`, 1, max, fallback);
}

/** A text, matching `pattern` when given. */
export function textParam(
  description: string,
  pattern?: string,
  error: string | ((name: string) => string) = (name) => `${name} is malformed`,
): TextParam<string | undefined> {
  const schema = pattern ? Type.String({ pattern }) : Type.String();
  return { kind: 'text', description, schema, error, fallback: undefined };
}

/** One of `choices`; absent: `fallback` when given, else undefined. */
export function choiceParam<const C extends string>(
  description: string,
  choices: readonly C[],
): TextParam<C | undefined>;
export function choiceParam<const C extends string>(
  description: string,
  choices: readonly C[],
  fallback: NoInfer<C>,
): TextParam<C>;
export function choiceParam<const C extends string>(
  description: string,
  choices: readonly C[],
  fallback?: C,
): TextParam<C | undefined> {
  const error = (name: string) => `${name} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  const schema = Type.Union(choices.map((choice) => Type.Literal(choice)));
  return { kind: 'text', description, schema, error, fallback };
}

/** The 400 text of parameter `name`. */
function paramError(name: string, param: QueryParam): string {
  return typeof param.error === 'string' ? param.error : param.error(name);
}

/** The reader of a route's query string: checks each value, converts, clamps and fills in the defaults. */
export function compileQuery<Q extends QuerySpec>(spec: Q): (search: string) => QueryOf<Q> {
  const entries = Object.entries(spec);
  const validator = Compile(
    Type.Object(Object.fromEntries(entries.map(([name, p]) => [name, Type.Optional(p.schema)]))),
  );
  const byName = new Map(entries);
  return (search) => {
    const values: Record<string, string | number | undefined> = {};
    const query = new URLSearchParams(search);
    for (const [name, value] of query) {
      const param = byName.get(name);
      if (!param || value === '' || name in values) continue;
      if (param.ignoredWith !== undefined && (query.get(param.ignoredWith) ?? '') !== '') continue;
      // Integers are checked as text and converted here: typebox's Convert walks the schema on every request (a
      // fifth of a small answer's time) and would truncate '1.5' to 1.
      if (param.kind === 'integer') {
        if (!INTEGER_TEXT.test(value)) throw new ApiError(400, paramError(name, param));
        const number = Number(value);
        values[name] = param.clamp === null ? number : Math.min(param.clamp[1], Math.max(param.clamp[0], number));
      } else values[name] = value;
    }
    if (!validator.Check(values)) {
      const [first] = validator.Errors(values);
      const name = (first?.instancePath ?? '').split('/')[1] ?? '';
      const param = byName.get(name);
      throw new ApiError(400, param ? paramError(name, param) : `bad query parameter ${name}`);
    }
    for (const [name, param] of entries) values[name] ??= param.fallback;
    // The values were made from the declaration above, one by one: they are the QueryOf it names.
    return values as QueryOf<Q>;
  };
}
