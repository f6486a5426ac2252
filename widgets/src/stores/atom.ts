// The stores' building block: an atom, one value that listeners follow — the part of nanostores' `atom`
// the widgets use (get, set, listen), with the same names, so the stores keep nanostores' shape. The
// library itself (batching, lifecycle events, none of which the widgets use) cost about 0.35 KB gzip
// in every bundle, more than the registration form's 10 KB budget had left.

export interface ReadableAtom<T> {
  /** The value now. */
  get(): T;
  /** Calls `listener` on every change of the value; answers the function that stops it. */
  listen(listener: (value: T) => void): () => void;
}

export interface WritableAtom<T> extends ReadableAtom<T> {
  /** Changes the value (a value equal to the current one changes nothing). */
  set(value: T): void;
}

export function atom<T>(initial: T): WritableAtom<T> {
  let value = initial;
  let listeners: ((value: T) => void)[] = [];
  return {
    get: () => value,
    set(next) {
      if (next === value) return;
      value = next;
      // The value now, not `next`: a listener may have set another.
      for (const listener of listeners.slice()) listener(value);
    },
    listen(listener) {
      listeners.push(listener);
      return () => (listeners = listeners.filter((l) => l !== listener));
    },
  };
}
