// Runs the calls that share a key one after the other, within this process. A budget read with
// `peek` and spent with `hit` is otherwise overdrawn by every call that peeks before the first one hits:
// 50 concurrent wrong codes at 19 of 20 would all be evaluated. Across processes (Redis) the overdraft
// is at most one call per process.

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Runs `fn` once every earlier call for `key` under `owner` (e.g. one platform's counter) has settled. */
export function oneAtATime<T>(owner: object, key: string, fn: () => Promise<T>): Promise<T> {
  let ofOwner = queues.get(owner);
  if (!ofOwner) queues.set(owner, (ofOwner = new Map()));
  const run = (ofOwner.get(key) ?? Promise.resolve()).then(fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  ofOwner.set(key, settled);
  // The last call for a key removes it, so idle keys hold no memory.
  void settled.then(() => {
    if (ofOwner.get(key) === settled) ofOwner.delete(key);
  });
  return run;
}
