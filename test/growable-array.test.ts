import { describe, expect, it } from 'vitest';
import { GrowableArray } from '../engine/growable-array.js';

describe('GrowableArray', () => {
  it('grows past its first 1024 values by doubling and keeps every value', () => {
    const values = new GrowableArray((n) => new Float64Array(n));
    for (let i = 0; i < 5000; i++) values.push(i / 3);
    expect(values.length).toBe(5000);
    expect(values.get(4999)).toBe(4999 / 3);
    expect(Array.from(values.toArray().subarray(1023, 1026))).toEqual([1023 / 3, 1024 / 3, 1025 / 3]);
  });

  it('sets far past its end (the gap reads 0) and copies only the values set', () => {
    const values = new GrowableArray((n) => new Int32Array(n));
    values.set(3000, -7);
    expect(values.length).toBe(3001);
    expect(values.get(2999)).toBe(0);
    const copy = values.toArray();
    expect(copy).toBeInstanceOf(Int32Array);
    expect(copy.length).toBe(3001);
    expect(copy[3000]).toBe(-7);
  });

  it('views the values set without copying them', () => {
    const values = new GrowableArray((n) => new Float64Array(n));
    for (let i = 0; i < 1500; i++) values.push(i);
    const view = values.view();
    expect(view.length).toBe(1500);
    expect(view[1499]).toBe(1499);
    values.set(10, -1);
    expect(view[10]).toBe(-1);
  });
});
