import { html, nothing, type TemplateResult } from 'lit';
import { PodiumElement } from '../../internal/podium-element.ts';
import { tp } from '../../internal/locale.ts';
import { PodiumApiError, call } from '../../internal/api.ts';
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
 * Once unlocked, the focus moves to the revealed content: its first heading, else the content as a
 * whole (a group named after the event), so a keyboard or screen-reader user goes on from there.
 *
 * Once an event's budget of wrong codes is spent, the platform checks a code only with a solved
 * proof-of-work challenge (event.checkAccessCode answers 428): the gate then fetches one, solves it in
 * the browser (about a second, Web Crypto, nothing else contacted) saying so, and sends the code again.
 *
 * @csspart form - The access code form.
 * @csspart title - The heading above the form.
 * @csspart label - The field's label.
 * @csspart input - The access code field.
 * @csspart button - The unlock button.
 * @csspart error - The message of a wrong code or of a wait.
 * @csspart status - The loading and error messages, and the "not a robot" check.
 * @csspart content - Around the revealed content.
 *
 * @cssproperty --podium-color-primary - Button background.
 * @cssproperty --podium-color-on-primary - Text on the button.
 * @cssproperty --podium-color-text - Text.
 * @cssproperty --podium-color-surface - The form's panel.
 * @cssproperty --podium-color-border - The panel's border.
 * @cssproperty --podium-color-input-border - Field border.
 * @cssproperty --podium-color-focus - Focus ring.
 * @cssproperty --podium-color-danger - Errors and refused fields.
 * @cssproperty --podium-font-family - Font.
 * @cssproperty --podium-radius - Corner radius.
 */
export class PodiumAccessGate extends PodiumElement {
  static override styles = [common, styles];

  static override properties = {
    ...PodiumElement.properties,
    _message: { state: true },
    _checking: { state: true },
    _waitUntil: { state: true },
    _robot: { state: true },
  };

  declare private _message: string;
  declare private _checking: boolean;
  /** While a 429 lasts: the time (ms) the platform accepts codes again. */
  declare private _waitUntil: number;
  /** Solving the platform's challenge before the code is checked. */
  declare private _robot: boolean;

  #grants = new StoreController(this, $grants);
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this._message = '';
    this._checking = false;
    this._waitUntil = 0;
    this._robot = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
  }

  /** Whether the content shows: a public event, or a private one this page holds a grant for. */
  get unlocked(): boolean {
    void this.#grants.value;
    return !!this._info && (this._info.isPublic || grantOf(this.api, this._info.eventID) !== '');
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const input = form.elements.namedItem('code') as HTMLInputElement;
    if (this._checking || !this._info || Date.now() < this._waitUntil) return;
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    this._checking = true;
    this._message = '';
    const { api } = this;
    const { eventID } = this._info;
    try {
      const row = await this.#check(eventID, input.value.trim());
      if (row.correct === '1' && row.grant) {
        setGrant(api, eventID, String(row.grant));
        this.dispatchEvent(new PodiumUnlockedEvent({ eventID }));
        void this.updateComplete.then(() => this.#focusContent());
      } else this._message = this.t('gate.wrongCode');
    } catch (err) {
      const error = this._fail('event.checkAccessCode', err);
      this._message = this.#errorMessage(error);
    } finally {
      this._checking = false;
      this._robot = false;
    }
    if (this._message) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('input')?.focus();
    }
  }

  /**
   * Typing again ends the last answer's "wrong code" (not a wait: that lasts its time). Spaces go as
   * they come: a code pasted from an e-mail often carries one, and a length cap (`maxlength`) would
   * cut its last digit before the pattern saw it.
   */
  #onInput = (e: Event): void => {
    const input = e.target as HTMLInputElement;
    // The same value set again leaves the caret where it is (HTML's value setter moves it on a change only).
    input.value = input.value.replace(/\s+/g, '');
    if (!this._waitUntil) this._message = '';
  };

  /**
   * After an unlock the form, and the focus with it, is gone: without this the focus falls to <body>.
   * It goes to the revealed content's first heading (made focusable from script only), else to the
   * content's group.
   */
  #focusContent(): void {
    const heading = this.querySelector<HTMLElement>('h1,h2,h3,h4,h5,h6');
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    (heading ?? this.renderRoot.querySelector<HTMLElement>('[part="content"]'))?.focus();
  }

  /** The code's check; on 428, with a solved challenge (a second 428 means the check did not work out). */
  async #check(eventID: number, accessCode: string) {
    const { api } = this;
    let altcha: string | undefined;
    for (;;) {
      try {
        return (await call(api, 'event.checkAccessCode', { eventID }, { accessCode, altcha }))[0];
      } catch (err) {
        if (!(err instanceof PodiumApiError) || err.status !== 428 || altcha) throw err;
        this._robot = true;
        const [challenge] = await call(api, 'event.accessCode.challenge', { eventID });
        // The solver is loaded only now (a chunk of its own in the build): most visitors never need it.
        altcha = await import('../../../../src/shared/altcha.ts')
          .then(({ solveAltcha }) => solveAltcha(String(challenge.challenge)))
          .catch(() => {
            throw new PodiumApiError(428, 'the challenge could not be solved');
          });
      }
    }
  }

  #errorMessage(error: PodiumApiError): string {
    if (error.status === 400) return this.t('gate.invalidCode');
    if (error.status === 428) return this.t('gate.robotFailed');
    if (error.status !== 429) return this._errorText(error);
    const seconds = error.retryAfter || 60;
    this._waitUntil = Date.now() + seconds * 1000;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this._waitUntil = 0;
      this._message = '';
    }, seconds * 1000);
    const minutes = Math.ceil(seconds / 60);
    return tp(this.language, 'gate.tooManyTries', minutes, { minutes });
  }

  protected override content(): TemplateResult {
    if (!this._info) return this._status(this.t('common.loading'));
    if (this.unlocked)
      return html`<div part="content" role="group" aria-label=${this._info.name || nothing} tabindex="-1">
        <slot></slot>
      </div>`;
    const waiting = this._waitUntil > 0;
    return html`<form class="panel" part="form" @submit=${this.#submit} aria-labelledby="title">
      <h2 id="title" part="title">${this.t('gate.title')}</h2>
      <p>${this._info.name ? html`<strong>${this._info.name}</strong>. ` : nothing}${this.t('gate.intro')}</p>
      <label for="code" part="label">${this.t('gate.accessCode')}</label>
      <div class="row">
        <input
          id="code"
          name="code"
          part="input"
          inputmode="numeric"
          autocomplete="off"
          pattern="[0-9]{1,4}"
          required
          aria-invalid=${!!this._message && !waiting}
          aria-describedby="message"
          title=${this.t('gate.invalidCode')}
          @input=${this.#onInput}
        />
        <button class="button" part="button" type="submit" aria-disabled=${this._checking || waiting}>
          ${this.t(this._checking ? 'gate.checking' : 'gate.unlock')}
        </button>
      </div>
      <p id="message" class="error" part="error" role="alert">${this._message}</p>
      <p id="robot" part="status" role="status">${this._robot ? this.t('gate.robotCheck') : ''}</p>
    </form>`;
  }
}

PodiumAccessGate.define('podium-access-gate');

declare global {
  interface HTMLElementTagNameMap {
    'podium-access-gate': PodiumAccessGate;
  }
}
