import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { PodiumErrorEvent } from '../events/events.ts';
import { PodiumApiError } from './api.ts';
import { loadLocale, t, widgetLocale, type Locale, type MessageKey, type MessageVars } from './locale.ts';
import { resolveEvent, type EventInfo } from '../stores/event.ts';
import { setGrant } from '../stores/grant.ts';

/**
 * The base of every Podium widget: the common attributes (`api`, `event`, `locale`), the event's ID
 * resolved from either form of `event`, messages in the widget's language, errors as `podium-error`
 * events, and a `define` that leaves an already defined tag alone (a page may load the bundle twice).
 * Subclasses draw in `content()`; nothing is drawn until the widget's language is loaded, and an event
 * that cannot be found (or reached) is a status panel of the base's instead.
 */
export class PodiumElement extends LitElement {
  static override properties = {
    api: {},
    event: {},
    locale: {},
    grant: {},
    _info: { state: true },
    _resolveError: { state: true },
  };

  /** The platform's base URL, e.g. `https://api.example.com`. */
  declare api: string;
  /** The event: its ID, or `company/event` (the company's namespace and the event's nickname). */
  declare event: string;
  /** `en`, `pt` or `es`; by default the page's language (`lang`), else the event's, else the browser's. */
  declare locale: string;
  /**
   * The grant of a private event (event.checkAccessCode) when the page already has one, e.g. the
   * Podium site after its access-code page; handed to every widget of the event like the gate's.
   */
  declare grant: string;
  /** The event as event.get describes it, once known (read once per page for every widget of the event). */
  declare protected _info: EventInfo | undefined;
  declare protected _resolveError: PodiumApiError | undefined;
  #seq = 0;

  constructor() {
    super();
    this.api = this.event = this.locale = '';
  }

  /** Registers the element under `tag` unless a tag of that name is already defined. */
  static define(tag: string): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The event's ID once known. */
  protected get _eventID(): number | undefined {
    return this._info?.eventID;
  }

  /** The language this widget speaks now (the event's language is a fallback). */
  get language(): Locale {
    return widgetLocale(this, this.locale, this._info?.language);
  }

  protected t(key: MessageKey, vars?: MessageVars): string {
    return t(this.language, key, vars);
  }

  override willUpdate(changed: PropertyValues): void {
    if (changed.has('api') || changed.has('event')) void this.#resolve();
  }

  async #resolve(): Promise<void> {
    const n = ++this.#seq;
    this._info = this._resolveError = undefined;
    // Not an error before the page sets them.
    if (!this.api && !this.event) return;
    try {
      const info = await resolveEvent(this.api, this.event);
      if (this.grant) setGrant(this.api, info.eventID, this.grant);
      if (n === this.#seq) this._info = info;
    } catch (err) {
      if (n === this.#seq) this._fail('event.get', err);
    }
  }

  /** Tells the page about a failed call with a `podium-error` event; answers the error. */
  protected _fail(operation: string, err: unknown): PodiumApiError {
    const error = err instanceof PodiumApiError ? err : new PodiumApiError(0, String(err));
    if (operation === 'event.get') this._resolveError = error;
    this.dispatchEvent(new PodiumErrorEvent({ operation, status: error.status, message: error.message }));
    return error;
  }

  /** A visitor-facing sentence for a failed call. */
  protected _errorText(error: PodiumApiError): string {
    return this.t(
      ({ 404: 'error.eventNotFound', 0: 'form.networkError', 429: 'form.tooManyRequests' } as const)[
        error.status as 0
      ] ?? 'error.generic',
    );
  }

  /**
   * The panel every widget shows while loading, when closed or locked, and on errors (part `status`,
   * announced): `text`, and a "Try again" button that runs `retry` when given. The button goes with the
   * panel: the focus it had goes to the widget itself (focusable from script only), not to the host
   * page's <body>, so that the next Tab is the widget's first control.
   */
  protected _status(text: string, retry?: () => void): TemplateResult {
    return html`<div class="panel" part="status" role="status">
      <p>${text}</p>
      ${
        retry
          ? html`<button
              class="button"
              type="button"
              @click=${() => {
                // (A tabindex the page gave the element stays.)
                if (!this.hasAttribute('tabindex')) this.tabIndex = -1;
                this.focus();
                retry();
              }}
            >
              ${this.t('common.retry')}
            </button>`
          : nothing
      }
    </div>`;
  }

  override render(): TemplateResult | typeof nothing {
    const loading = loadLocale(this.language);
    // An event that could not be read: "Try again" (a 404 too: the organizer may be publishing it now).
    if (!loading)
      return this._resolveError
        ? this._status(this._errorText(this._resolveError), () => this.#resolve())
        : this.content();
    loading.then(() => this.requestUpdate());
    return nothing;
  }

  /** What the widget draws (called once its language is ready). */
  protected content(): TemplateResult | typeof nothing {
    return nothing;
  }
}
