import { z } from 'zod';
import type { SettingGroup } from './setting-groups.js';

/**
 * One environment variable: what its text becomes (zod), and what docs/configuration.md says of
 * it. The schema is made for the variable's name, so every refusal names it.
 */
export interface Setting<T> {
  /** The section of docs/configuration.md it is listed in. */
  group: SettingGroup;
  /** The table's "default" column, as an operator reads it; '—' when unset means "off". */
  shown: string;
  /** The table's "meaning" column. */
  about: string;
  /** Reads the variable's text (undefined when unset) into its value, or refuses it. */
  schema(name: string): z.ZodType<T, string | undefined>;
}

export type SettingValue<S> = S extends Setting<infer T> ? T : never;

interface Described {
  /** Required: every setting is listed under one concern. */
  group: SettingGroup;
  about: string;
  /** The default column when the default is not a plain value (it depends on other settings). */
  shown?: string;
}

const shownValue = (value: string | number | undefined) => (value === undefined || value === '' ? '—' : `\`${value}\``);

/** Unset and empty mean the same: the default (a variable exported as '' by a script counts as unset). */
const unsetIfEmpty = (text: string | undefined) => (text === '' ? undefined : text);

/**
 * A whole number, at least `min` (refused below it); `atLeast` quietly raises smaller ones
 * (EXPORT_CONCURRENCY=0 means 1, as it always has). Accepts what Number() reads as one (`1e3`).
 */
export function integer<D extends number | undefined>(
  options: Described & { default: D; min?: number; atLeast?: number },
): Setting<number | D> {
  const { min = 0, atLeast = 0 } = options;
  return {
    group: options.group,
    shown: options.shown ?? shownValue(options.default),
    about: options.about,
    schema: (name) => {
      const refused = { error: `${name} must be a non-negative integer` };
      return z
        .string()
        .optional()
        .transform((text) => (unsetIfEmpty(text) === undefined ? undefined : Number(text)))
        .pipe(
          z
            .number(refused)
            .int(refused)
            .min(0, refused)
            .min(min, { error: `${name} must be at least ${min}` })
            .optional(),
        )
        .transform((value) => (value === undefined ? options.default : Math.max(atLeast, value)));
    },
  };
}

/** Free text; unset or empty gives the default (`keepEmpty`: empty is a value of its own). */
export function text<D extends string | undefined>(options: Described & { default: D; keepEmpty?: boolean }): Setting<string | D> {
  return {
    group: options.group,
    shown: options.shown ?? shownValue(options.default),
    about: options.about,
    schema: () =>
      z
        .string()
        .optional()
        .transform((value) => (options.keepEmpty ? value : unsetIfEmpty(value)) ?? options.default),
  };
}

/** One of a few words, any case, spaces around ignored; anything else is refused, listing them. */
export function oneOf<const V extends string>(values: readonly V[], options: Described & { default: V }): Setting<V> {
  return {
    group: options.group,
    shown: options.shown ?? shownValue(options.default),
    about: options.about,
    schema: (name) =>
      z
        .string()
        .optional()
        .transform((raw, ctx) => {
          const value = (unsetIfEmpty(raw) ?? options.default).trim().toLowerCase();
          if ((values as readonly string[]).includes(value)) return value as V;
          ctx.addIssue({ code: 'custom', message: `${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}` });
          return z.NEVER;
        }),
  };
}

/** On when `true` or `1`; anything else is off (never refused: this is how S3_FORCE_PATH_STYLE always read). */
export function flag(options: Described): Setting<boolean> {
  return {
    group: options.group,
    shown: options.shown ?? '`false`',
    about: options.about,
    schema: () =>
      z
        .string()
        .optional()
        .transform((value) => value === 'true' || value === '1'),
  };
}

/**
 * A setting with a reading of its own: `read` gets the text (undefined when unset or empty) and
 * returns the value, or a string saying why it is refused (which must name the variable).
 */
export function custom<T>(options: Described & { shown: string; read: (text: string | undefined) => T | Refusal }): Setting<T> {
  return {
    group: options.group,
    shown: options.shown,
    about: options.about,
    schema: () =>
      z
        .string()
        .optional()
        .transform((raw, ctx) => {
          const value = options.read(unsetIfEmpty(raw));
          if (!(value instanceof Refusal)) return value;
          ctx.addIssue({ code: 'custom', message: value.message });
          return z.NEVER;
        }),
  };
}

/** Why a custom setting's text is refused; a class, so no value a setting returns can be taken for one. */
export class Refusal {
  constructor(readonly message: string) {}
}
