import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ReadableAtom } from 'nanostores';

/**
 * Re-renders a host whenever a store changes, subscribed only while the host is connected (the
 * `StoreController` of @nanostores/lit, which ships as CommonJS only).
 */
export class StoreController<T> implements ReactiveController {
  readonly host: ReactiveControllerHost;
  readonly store: ReadableAtom<T>;
  #unsubscribe: (() => void) | undefined;

  constructor(host: ReactiveControllerHost, store: ReadableAtom<T>) {
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
