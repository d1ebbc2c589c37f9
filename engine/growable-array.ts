// A typed array that grows by doubling: per-block and per-frame series whose length is known only at the end of the
// stream, kept as one typed array instead of a JS array of boxed numbers.

export type NumericArray = Float64Array | Float32Array | Uint32Array | Uint16Array | Int32Array;

export class GrowableArray<A extends NumericArray> {
  length = 0;
  private data: A;

  constructor(private readonly create: (size: number) => A) {
    this.data = create(1024);
  }

  get(index: number): number {
    return this.data[index];
  }

  set(index: number, value: number): void {
    this.ensureLength(index + 1);
    this.data[index] = value;
  }

  push(value: number): void {
    this.set(this.length, value);
  }

  ensureLength(length: number): void {
    if (length > this.data.length) {
      const grown = this.create(Math.max(length, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    if (length > this.length) this.length = length;
  }

  /**
   * The storage itself, at least `length` long after `ensureLength(length)`, for a hot loop that reads and writes it
   * directly: there its accesses see one kind of typed array, where `get` and `set` see every kind of series. A later
   * growth replaces it.
   */
  storage(): A {
    return this.data;
  }

  /**
   * The values so far without a copy, for a series that is complete (a view of the storage: a later push may write
   * into it or move the values elsewhere). Copying an hour of a per-frame column costs its size again at the peak.
   */
  view(): A {
    return this.data.subarray(0, this.length) as A;
  }

  /** A copy of the values so far. */
  toArray(): A {
    return this.data.slice(0, this.length) as A;
  }
}
