/**
 * Request bodies from the command line: `--file request.json` (or `-` for stdin) and
 * `--body '<json>'`, with the common fields given as flags laid over them.
 */
import { readFileSync } from 'node:fs';
import { CliError } from './exit-codes.js';

/** The body options every request command takes. */
export interface BodyOptions {
  /** `--body`: the request as JSON text. */
  body?: string | undefined;
  /** `--file`: a JSON file holding the request; `-` reads stdin. */
  file?: string | undefined;
}

/** Reads and parses a JSON file (`-` for stdin); a usage error names the file and the problem. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseJson(text, path);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CliError(`${where} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * The request body: `--file`, then `--body` over it, then every defined flag over both (flags
 * name wire fields, snake_case). Fields left `undefined` are not set.
 */
export function requestBody(
  options: BodyOptions,
  flags: Record<string, unknown> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.file !== undefined) Object.assign(body, asObject(readJsonFile(options.file), options.file));
  if (options.body !== undefined) Object.assign(body, asObject(parseJson(options.body, '--body'), '--body'));
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) body[key] = value;
  return body;
}

/**
 * Parses a flag's whole number, refusing anything else, or one outside `min`-`max`, with a
 * usage error: the parser runs before the command, so nothing is sent.
 */
export function integer(name: string, min = -Infinity, max = Infinity): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n)) throw new CliError(`${name} must be a whole number, got ${value}`);
    return inRange(name, n, min, max, value);
  };
}

/** Parses a flag's number, refusing anything else, or one outside `min`-`max`, with a usage error. */
export function number(name: string, min = -Infinity, max = Infinity): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n))
      throw new CliError(`${name} must be a number, got ${value}`);
    return inRange(name, n, min, max, value);
  };
}

function inRange(name: string, n: number, min: number, max: number, value: string): number {
  if (n >= min && n <= max) return n;
  const range = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
  throw new CliError(`${name} must be ${range}, got ${value}`);
}

/** Collects a repeatable flag's values. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
