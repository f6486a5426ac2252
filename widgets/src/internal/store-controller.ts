import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ReadableAtom } from 'nanostores';

/**
 * Re-renders a host whenever a store changes, subscribed only while the host is connected (what
 * @nanostores/lit's `StoreController` does). `S` is the store's own type (a read store's `reload`).
 */
export class StoreController<T, S extends ReadableAtom<T> = ReadableAtom<T>> implements ReactiveController {
  declare readonly host: ReactiveControllerHost;
  declare readonly store: S;
  #unsubscribe: (() => void) | undefined;

  constructor(host: ReactiveControllerHost, store: S) {
    this.host = host;
    this.store = store;
    host.addController(this);
  }

  get value(): T {
    return this.store.get();
  }

  hostConnected(): void {
    this.#unsubscribe = this.store.listen(() => this.host.requestUpdate());
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
