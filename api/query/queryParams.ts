// Each route's query parameters as typebox schemas. The OpenAPI document lists them; the server checks every
// request against a validator compiled from them before the route runs, and a bad parameter gets its own text.
// An empty value counts as absent; parameters a route does not know, or that another one overrides, are ignored.
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { ApiError } from '../apiError.js';

export interface QueryParam {
  name: string;
  description: string;
  schema: TSchema;
  /** The 400 text when the value does not fit the schema. */
  error: string;
  /** A parameter whose presence makes this one ignored, unchecked (a search ignores the cursor, spec 4.2). */
  ignoredWith?: string;
}

/** What a route reads: strings, and numbers for integer parameters; absent ones are missing. */
export type QueryValues = Readonly<Record<string, string | number | undefined>>;

const INTEGER_TEXT = /^-?\d{1,15}$/;

export function integerParam(name: string, description: string, options: { minimum?: number } = {}): QueryParam {
  const error =
    options.minimum === undefined
      ? `${name} must be an integer`
      : `${name} must be an integer, ${options.minimum} or more`;
  return { name, description, schema: Type.Integer(options), error };
}

export function textParam(
  name: string,
  description: string,
  pattern?: string,
  error = `${name} is malformed`,
): QueryParam {
  return { name, description, schema: pattern ? Type.String({ pattern }) : Type.String(), error };
}

export function choiceParam(name: string, description: string, choices: string[]): QueryParam {
  const error = `${name} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  return { name, description, schema: Type.Union(choices.map((choice) => Type.Literal(choice))), error };
}

export function compileQuery(params: QueryParam[]): (search: string) => QueryValues {
  const validator = Compile(Type.Object(Object.fromEntries(params.map((p) => [p.name, Type.Optional(p.schema)]))));
  const byName = new Map(params.map((p) => [p.name, p]));
  return (search) => {
    const values: Record<string, unknown> = {};
    const query = new URLSearchParams(search);
    for (const [name, value] of query) {
      const param = byName.get(name);
      if (!param || value === '' || name in values) continue;
      if (param.ignoredWith !== undefined && (query.get(param.ignoredWith) ?? '') !== '') continue;
      // Integers are checked as text and converted here: typebox's Convert walks the schema on every request (a
      // fifth of a small answer's time) and would truncate '1.5' to 1.
      if ((param.schema as { type?: string }).type === 'integer') {
        if (!INTEGER_TEXT.test(value)) throw new ApiError(400, param.error);
        values[name] = Number(value);
      } else values[name] = value;
    }
    if (validator.Check(values)) return values as QueryValues;
    const [first] = validator.Errors(values);
    const name = (first?.instancePath ?? '').split('/')[1] ?? '';
    throw new ApiError(400, byName.get(name)?.error ?? `bad query parameter ${name}`);
  };
}
