import { LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { PodiumErrorEvent } from '../events/events.ts';
import { PodiumApiError } from './api.ts';
import { loadLocale, t, widgetLocale, type Locale, type MessageKey, type MessageVars } from './locale.ts';
import { resolveEvent, type EventInfo } from '../stores/event.ts';

/**
 * The base of every Podium widget: the common attributes (`api`, `event`, `locale`), the event's ID
 * resolved from either form of `event`, messages in the widget's language, errors as `podium-error`
 * events, and a `define` that leaves an already defined tag alone (a page may load the bundle twice).
 * Subclasses draw in `content()`; nothing is drawn until the widget's language is loaded.
 */
export class PodiumElement extends LitElement {
  static override properties = {
    api: {},
    event: {},
    locale: {},
    eventID: { state: true },
    info: { state: true },
    resolveError: { state: true },
  };

  /** The platform's base URL, e.g. `https://api.example.com`. */
  declare api: string;
  /** The event: its ID, or `company/event` (the company's namespace and the event's nickname). */
  declare event: string;
  /** `en`, `pt` or `es`; by default the page's language (`lang`), else the event's, else the browser's. */
  declare locale: string;
  /** The event's ID once known. */
  declare protected eventID: number | undefined;
  /** The event as event.get describes it (read once per page for every widget of the event). */
  declare protected info: EventInfo | undefined;
  declare protected resolveError: PodiumApiError | undefined;
  /** The event's language, when the widget learns it, a fallback for the widget's. */
  protected eventLanguage = '';
  #seq = 0;

  constructor() {
    super();
    this.api = this.event = this.locale = '';
  }

  /** Registers the element under `tag` unless a tag of that name is already defined. */
  static define(tag: string): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The language this widget speaks now. */
  get language(): Locale {
    return widgetLocale(this, this.locale, this.eventLanguage);
  }

  protected t(key: MessageKey, vars?: MessageVars): string {
    return t(this.language, key, vars);
  }

  override willUpdate(changed: PropertyValues): void {
    if (changed.has('api') || changed.has('event')) void this.#resolve();
  }

  async #resolve(): Promise<void> {
    const n = ++this.#seq;
    this.eventID = this.info = this.resolveError = undefined;
    // Not an error before the page sets them.
    if (!this.api && !this.event) return;
    try {
      const info = await resolveEvent(this.api, this.event);
      if (n !== this.#seq) return;
      this.eventLanguage = info.language;
      this.info = info;
      this.eventID = info.eventID;
    } catch (err) {
      if (n === this.#seq) this.fail('event.get', err);
    }
  }

  /** Tells the page about a failed call with a `podium-error` event; answers the error. */
  protected fail(operation: string, err: unknown): PodiumApiError {
    const error = err instanceof PodiumApiError ? err : new PodiumApiError(0, String(err));
    if (operation === 'event.get') this.resolveError = error;
    this.dispatchEvent(new PodiumErrorEvent({ operation, status: error.status, message: error.message }));
    return error;
  }

  /** A visitor-facing sentence for a failed call. */
  protected errorText(error: PodiumApiError): string {
    const s = error.status;
    return this.t(
      s === 404
        ? 'error.eventNotFound'
        : s === 0
          ? 'form.networkError'
          : s === 429
            ? 'form.tooManyRequests'
            : 'error.generic',
    );
  }

  override render(): TemplateResult | typeof nothing {
    const loading = loadLocale(this.language);
    if (!loading) return this.content();
    loading.then(() => this.requestUpdate());
    return nothing;
  }

  /** What the widget draws (called once its language is ready). */
  protected content(): TemplateResult | typeof nothing {
    return nothing;
  }
}
