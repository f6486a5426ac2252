// Web Storage that never throws: blocked storage (sandboxed iframes, privacy modes, quota) means
// nothing persists, never a broken widget.

type Kind = 'sessionStorage' | 'localStorage';

/** The storage, or undefined when the page may not use it. */
export function storage(kind: Kind): Storage | undefined {
  try {
    return globalThis[kind];
  } catch {
    return undefined;
  }
}

export function readJson<T>(kind: Kind, key: string): T | undefined {
  try {
    return JSON.parse(storage(kind)!.getItem(key)!) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Stores `value` as JSON; undefined removes the key. */
export function writeJson(kind: Kind, key: string, value: unknown): void {
  try {
    if (value === undefined) storage(kind)!.removeItem(key);
    else storage(kind)!.setItem(key, JSON.stringify(value));
  } catch {
    // not persisted
  }
}
