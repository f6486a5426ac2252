import { html, nothing, type TemplateResult } from 'lit';
import { PodiumElement } from '../../internal/podium-element.ts';
import { tp } from '../../internal/locale.ts';
import { call, type PodiumApiError } from '../../internal/api.ts';
import { StoreController } from '../../internal/store-controller.ts';
import { $grants, grantOf, setGrant } from '../../stores/grant.ts';
import { PodiumUnlockedEvent } from '../../events/events.ts';
import { common } from '../../styles/common.styles.ts';
import { styles } from './access-gate.styles.ts';

/**
 * @summary Shows its content only once the visitor enters the access code of a private event; the grant
 * it receives unlocks every Podium widget of that event on the page. A public event's content shows at once.
 * @tagname podium-access-gate
 *
 * @slot - The content to reveal, usually `<podium-agenda>` and `<podium-registration>` of the same event.
 *
 * @event podium-unlocked - The code was right. `detail`: `{ eventID }`.
 * @event podium-error - Reading the event or checking the code failed (a wrong code is not an error).
 * `detail`: `{ operation, status, message }`.
 *
 * @csspart form - The access code form.
 * @csspart title - The heading above the form.
 * @csspart label - The field's label.
 * @csspart input - The access code field.
 * @csspart button - The unlock button.
 * @csspart error - The message of a wrong code or of a wait.
 * @csspart status - The loading and error messages.
 *
 * @cssproperty --podium-color-primary - Button background.
 * @cssproperty --podium-color-on-primary - Text on the button.
 * @cssproperty --podium-color-text - Text.
 * @cssproperty --podium-color-surface - The form's panel.
 * @cssproperty --podium-color-border - The panel's border.
 * @cssproperty --podium-color-input-border - Field border.
 * @cssproperty --podium-color-focus - Focus ring.
 * @cssproperty --podium-font-family - Font.
 * @cssproperty --podium-radius - Corner radius.
 */
export class PodiumAccessGate extends PodiumElement {
  static override styles = [common, styles];

  static override properties = {
    ...PodiumElement.properties,
    message: { state: true },
    checking: { state: true },
    waitUntil: { state: true },
  };

  declare private message: string;
  declare private checking: boolean;
  /** While a 429 lasts: the time (ms) the platform accepts codes again. */
  declare private waitUntil: number;

  #grants = new StoreController(this, $grants);
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.message = '';
    this.checking = false;
    this.waitUntil = 0;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
  }

  /** Whether the content shows: a public event, or a private one this page holds a grant for. */
  get unlocked(): boolean {
    void this.#grants.value;
    return !!this.info && (this.info.isPublic || grantOf(this.api, this.info.eventID) !== '');
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const input = form.elements.namedItem('code') as HTMLInputElement;
    if (this.checking || !this.info || Date.now() < this.waitUntil) return;
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    this.checking = true;
    this.message = '';
    const { api } = this;
    const { eventID } = this.info;
    try {
      const [row] = await call(api, 'event.checkAccessCode', { eventID }, { accessCode: input.value.trim() });
      if (row.correct === '1' && row.grant) {
        setGrant(api, eventID, String(row.grant));
        this.dispatchEvent(new PodiumUnlockedEvent({ eventID }));
      } else this.message = this.t('gate.wrongCode');
    } catch (err) {
      const error = this.fail('event.checkAccessCode', err);
      this.message = this.#errorMessage(error);
    } finally {
      this.checking = false;
    }
    if (this.message) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('input')?.focus();
    }
  }

  #errorMessage(error: PodiumApiError): string {
    if (error.status === 400) return this.t('gate.invalidCode');
    if (error.status !== 429) return this.errorText(error);
    const seconds = error.retryAfter || 60;
    this.waitUntil = Date.now() + seconds * 1000;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.waitUntil = 0;
      this.message = '';
    }, seconds * 1000);
    const minutes = Math.ceil(seconds / 60);
    return tp(this.language, 'gate.tooManyTries', minutes, { minutes });
  }

  protected override content(): TemplateResult {
    if (this.resolveError)
      return html`<div class="panel" part="status" role="status">${this.errorText(this.resolveError)}</div>`;
    if (!this.info) return html`<div class="panel" part="status" role="status">${this.t('common.loading')}</div>`;
    if (this.unlocked) return html`<slot></slot>`;
    const waiting = this.waitUntil > 0;
    return html`<form class="panel" part="form" @submit=${this.#submit} aria-labelledby="title">
      <h2 id="title" part="title">${this.t('gate.title')}</h2>
      <p>${this.info.name ? html`<strong>${this.info.name}</strong>. ` : nothing}${this.t('gate.intro')}</p>
      <label for="code" part="label">${this.t('gate.accessCode')}</label>
      <div class="row">
        <input
          id="code"
          name="code"
          part="input"
          inputmode="numeric"
          autocomplete="off"
          pattern="[0-9]{1,4}"
          maxlength="4"
          required
          aria-invalid=${this.message && !waiting ? 'true' : 'false'}
          aria-describedby="message"
          title=${this.t('gate.invalidCode')}
        />
        <button class="button" part="button" type="submit" aria-disabled=${this.checking || waiting ? 'true' : 'false'}>
          ${this.checking ? this.t('gate.checking') : this.t('gate.unlock')}
        </button>
      </div>
      <p id="message" class="error" part="error" role="alert">${this.message}</p>
    </form>`;
  }
}

PodiumAccessGate.define('podium-access-gate');

declare global {
  interface HTMLElementTagNameMap {
    'podium-access-gate': PodiumAccessGate;
  }
}
