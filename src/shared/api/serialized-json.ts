/**
 * JSON serialized already (a cache keeps each post card's JSON once, and answers join them): a
 * string typed with the value it holds, so that a route can send it where that answer is expected
 * (server http/register-route.ts) and the compiler still checks it is the right answer. Made only
 * by the three functions below, each of which keeps the type honest.
 */
declare const serializedOf: unique symbol;
export type SerializedJson<T> = string & { readonly [serializedOf]: T };

/** `value` as JSON. */
export const serializedJson = <T>(value: T): SerializedJson<T> => JSON.stringify(value) as SerializedJson<T>;

/** A JSON array of items serialized already. */
export const serializedArray = <T>(items: readonly SerializedJson<T>[]): SerializedJson<T[]> =>
  `[${items.join(',')}]` as SerializedJson<T[]>;

/** A JSON object of fields serialized already, in the order given. */
export function serializedObject<T extends object>(fields: { [K in keyof T]: SerializedJson<T[K]> }): SerializedJson<T> {
  const members = Object.entries<string>(fields).map(([key, json]) => `${JSON.stringify(key)}:${json}`);
  return `{${members.join(',')}}` as SerializedJson<T>;
}
