// Reading a gate's thresholds. A threshold the gate needs and its profile table lacks, or one of the wrong type, is a
// programming error in the tables: it throws (the check reports the gate as `error`), never falls back to a guess.
// The `optional…` readers are for targets a delivery profile may leave out (e.g. a frame-rate list only broadcast sets).
import type { GateThresholds, Severity, ThresholdValue } from '../../types.js';

type Value = ThresholdValue['value'];

function entry(th: GateThresholds, key: string): ThresholdValue {
  const found = th[key];
  if (!found) throw new Error(`threshold ${key} missing`);
  return found;
}

function typed<T>(key: string, value: Value, is: (v: Value) => boolean, what: string): T {
  if (!is(value)) throw new Error(`threshold ${key} is not ${what}`);
  return value as T;
}

const isNumber = (v: Value) => typeof v === 'number';
const isString = (v: Value) => typeof v === 'string';
const isBoolean = (v: Value) => typeof v === 'boolean';
const isStrings = (v: Value) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isNumbers = (v: Value) => Array.isArray(v) && v.every((x) => typeof x === 'number');

export const threshold = (th: GateThresholds, key: string): number => typed(key, entry(th, key).value, isNumber, 'a number');
export const thresholdText = (th: GateThresholds, key: string): string => typed(key, entry(th, key).value, isString, 'text');
export const thresholdFlag = (th: GateThresholds, key: string): boolean => typed(key, entry(th, key).value, isBoolean, 'true or false');
export const thresholdNumbers = (th: GateThresholds, key: string): number[] => typed(key, entry(th, key).value, isNumbers, 'a list of numbers');
/** A list of words or phrases (numbers in it read as text). */
export const thresholdList = (th: GateThresholds, key: string): string[] => typed<unknown[]>(key, entry(th, key).value, Array.isArray, 'a list').map(String);

export function thresholdSeverity(th: GateThresholds, key: string): Severity {
  const value = entry(th, key).value;
  if (value !== 'BLOCK' && value !== 'WATCH') throw new Error(`threshold ${key} must be BLOCK or WATCH`);
  return value;
}

function optional<T>(th: GateThresholds, key: string, is: (v: Value) => boolean, what: string): T | null {
  return key in th ? typed<T>(key, th[key].value, is, what) : null;
}

export const optionalNumber = (th: GateThresholds, key: string): number | null => optional(th, key, isNumber, 'a number');
export const optionalNumbers = (th: GateThresholds, key: string): number[] | null => optional(th, key, isNumbers, 'a list of numbers');
export const optionalStrings = (th: GateThresholds, key: string): string[] | null => optional(th, key, isStrings, 'a list of text');
export const optionalFlag = (th: GateThresholds, key: string): boolean | null => optional(th, key, isBoolean, 'true or false');
export const optionalValue = (th: GateThresholds, key: string): Value | null => (key in th ? th[key].value : null);

/** Thresholds as plain values for a flag's evidence. */
export function thresholdValues(th: GateThresholds, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in th).map((k) => [k, th[k].value]));
}
