import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { PodiumElement } from '../../internal/podium-element.ts';
import { call, apiBase, type PodiumApiError, type Row } from '../../internal/api.ts';
import { organizerHTML } from '../../internal/organizer-html.ts';
import { readJson, writeJson } from '../../internal/storage.ts';
import { StoreController } from '../../internal/store-controller.ts';
import { eventRead, type Read, type ReadStore } from '../../stores/read.ts';
import { grantOf } from '../../stores/grant.ts';
import { PodiumRegisteredEvent } from '../../events/events.ts';
import { common } from '../../styles/common.styles.ts';
import { styles } from './registration.styles.ts';

/** One control of the form: a standard field, a custom field of the organizer's, or a choice. */
export interface Field {
  /** The control's name: firstName, lastName, email, f<feedbackID>, tag, rsvp, consent. */
  name: string;
  label: string;
  /** text, textarea, select, multiselect, checkbox, date, number, email, telephone, url. */
  type: string;
  required: boolean;
  /** [value, label] of a select, [value] of a multiselect. */
  options: string[][];
  /** Help text: sanitized HTML from the platform, '' for none. */
  help: string;
  /** A custom field's API key (its `data-*` prefill attribute; '' for none); undefined for the others. */
  key?: string;
}

/** form.get's row, its custom fields and attendee types ([tagID, name]) parsed. */
export type FormDefinition = Row & { fields: Field[]; tags: string[][] };

const list = (v: unknown): Row[] => (Array.isArray(v) ? v : []);

/** form.get's row → FormDefinition. */
export const parseForm = (row: Row): FormDefinition => ({
  ...row,
  fields: list(row.fields).map((f) => ({
    name: `f${f.feedbackID}`,
    label: f.name as string,
    type: f.type as string,
    required: f.required === '1',
    options: list(f.options).map((o) => [o.value as string]),
    help: f.description as string,
    key: f.apiKey as string,
  })),
  tags: list(row.tags).map((t) => [t.tagID as string, t.name as string]),
});

type Values = Record<string, string | string[]>;

const AUTOCOMPLETE: Record<string, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  email: 'email',
};
const REASON = { 'not-yet': 'form.notOpen', ended: 'form.ended', full: 'form.full' } as const;

/**
 * @summary The registration form of an event: its custom fields of every type, attendee types, RSVP,
 * consent and invite rules as the organizer set them; submits form.respondRegistration.
 * @tagname podium-registration
 *
 * @event podium-registered - A person was registered (or already was), or applied to an event that needs
 * approval. `detail`: `{ eventID, personID, email, approved, applied, duplicate }`: `approved` true is an
 * attendee; false with `applied` false is the waiting list; `applied` true is an application the
 * organizer decides on (not an attendee yet; `approved` false). With `duplicate` true (an address already
 * registered) `personID` is 0 and `approved` and `applied` false: the platform does not tell a visitor whose it is.
 * @event podium-error - Loading the form or registering failed. `detail`: `{ operation, status, message }`.
 *
 * @slot success - Replaces the message shown after registering.
 *
 * @csspart form - The form.
 * @csspart field - Each field's wrapper.
 * @csspart label - Each field's label.
 * @csspart input - Each text field, select and text area.
 * @csspart help - A field's help text, and the consent text.
 * @csspart error - A field's error message, and the form's.
 * @csspart button - The submit button.
 * @csspart success - The message shown after registering.
 * @csspart status - The loading, closed and error messages.
 *
 * @cssproperty --podium-color-primary - Button background.
 * @cssproperty --podium-color-on-primary - Text on the button.
 * @cssproperty --podium-color-primary-text - Links.
 * @cssproperty --podium-color-text - Text.
 * @cssproperty --podium-color-muted - Help text.
 * @cssproperty --podium-color-bg - Field background.
 * @cssproperty --podium-color-surface - Panels (success, closed).
 * @cssproperty --podium-color-border - Panel borders.
 * @cssproperty --podium-color-input-border - Field borders.
 * @cssproperty --podium-color-focus - Focus ring.
 * @cssproperty --podium-color-danger - Errors and refused fields.
 * @cssproperty --podium-font-family - Font.
 * @cssproperty --podium-radius - Corner radius.
 */
export class PodiumRegistration extends PodiumElement {
  static override styles = [common, styles];

  static override properties = {
    ...PodiumElement.properties,
    firstName: { attribute: 'first-name' },
    lastName: { attribute: 'last-name' },
    email: {},
    invite: {},
    inviteParam: { attribute: 'invite-param' },
    rsvp: { type: Boolean },
    _values: { state: true },
    _errors: { state: true },
    _busy: { state: true },
    _result: { state: true },
    _g: { state: true },
    _l: { state: true },
  };

  /** Prefills the first name. */
  declare firstName: string;
  /** Prefills the last name. */
  declare lastName: string;
  /** Prefills the e-mail. */
  declare email: string;
  /**
   * The invitation of an invite-only event: the invited e-mail (the platform's invite). By default the
   * page URL's `invite` parameter (see `invite-param`), so an invitation link can be
   * `https://example.com/register?invite=ana%40example.com`. It prefills the e-mail.
   */
  declare invite: string;
  /** The page URL parameter holding the invite (default `invite`). */
  declare inviteParam: string;
  /** Asks "Will you attend?" (yes/no), sent as the attendee's RSVP. */
  declare rsvp: boolean;

  declare private _values: Values;
  /** Messages by control name; '' is the form's own message. */
  declare private _errors: Record<string, string>;
  declare private _busy: boolean;
  declare private _result: Row | undefined;
  /** The "add a guest" part (guests.ts), loaded when the event allows guests . */
  declare private _g: typeof import('./guests.ts').guests | undefined;
  /** "Get your link" (link.ts), once opened: the part, loaded then. */
  declare private _l: typeof import('./link.ts').link | undefined;
  /** The panel after registering (success.ts). */
  declare private _s: typeof import('./success.ts').success | undefined;

  #form: StoreController<Read<FormDefinition>, ReadStore<FormDefinition>> | undefined;
  #reported: unknown;

  constructor() {
    super();
    this.firstName = this.lastName = this.email = this.invite = '';
    this.inviteParam = 'invite';
    this.rsvp = this._busy = false;
    this._values = this._errors = {};
  }

  get #draft(): string {
    return `podium:draft:${apiBase(this.api)}|${this._eventID}`;
  }

  /** The invite: the attribute, else the page URL's parameter. */
  get #invite(): string {
    return this.invite || new URLSearchParams(location.search).get(this.inviteParam) || '';
  }

  /** The form, once loaded. */
  get #def(): FormDefinition | undefined {
    return this.#form?.value.data;
  }

  override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const { api, _eventID: eventID } = this;
    if (changed.has('_info')) {
      if (this.#form) this.removeController(this.#form);
      this.#form = this._result = undefined;
      this._errors = {};
      if (eventID) {
        // Lit connects a controller added to a connected host at once.
        this.#form = new StoreController(
          this,
          eventRead('form.get', api, this._info!, (grant) =>
            call(api, 'form.get', { eventID, grant }).then(([row]) => parseForm(row)),
          ),
        );
        // What the visitor typed during this visit (kept through errors and reloads).
        this._values = readJson('sessionStorage', this.#draft) ?? {};
      }
    }
    const read = this.#form?.value;
    if (read?.status === 'error' && read.error !== this.#reported)
      this._fail('form.get', (this.#reported = read.error));
  }

  /** The value of a control: typed, else the attributes' prefill. */
  #value(f: Field): string | string[] {
    const prefill: Record<string, string | undefined> = {
      ...this.dataset,
      firstName: this.firstName,
      lastName: this.lastName,
      email: this.email || this.#invite,
    };
    return this._values[f.name] ?? prefill[f.key || f.name] ?? '';
  }

  #onInput = (e: Event): void => {
    const el = e.target as HTMLInputElement;
    const name = el.name;
    this._values = {
      ...this._values,
      [name]:
        el.type !== 'checkbox'
          ? el.value
          : el.id === name
            ? el.checked
              ? '1'
              : ''
            : [...this.renderRoot.querySelectorAll<HTMLInputElement>(`[name=${name}]:checked`)].map((b) => b.value),
    };
    this._errors = { ...this._errors, [name]: '' };
    writeJson('sessionStorage', this.#draft, this._values);
  };

  override updated(): void {
    // A required multiple choice needs a box ticked: the browser has no rule for a group, so the first
    // box carries the message until one is.
    for (const f of this.#fields())
      if (f.type === 'multiselect')
        this.renderRoot
          .querySelector<HTMLInputElement>(`[name=${f.name}]`)
          ?.setCustomValidity(f.required && !this.#value(f).length ? this.t('form.fieldRequired') : '');
  }

  /** Every control of the form, in order. */
  #fields(): Field[] {
    const def = this.#def;
    const field = (name: string, type: string, label: string, required = true, options: string[][] = []): Field => ({
      name,
      type,
      label,
      required,
      options,
      help: name === 'consent' ? (def!.consent as string) : '',
    });
    return def
      ? [
          field('firstName', 'text', this.t('form.firstName')),
          field('lastName', 'text', this.t('form.lastName')),
          field('email', 'email', this.t('form.email')),
          ...def.fields,
          ...(def.tags.length ? [field('tag', 'select', this.t('form.attendeeKind'), false, def.tags)] : []),
          ...(this.rsvp
            ? [
                field('rsvp', 'select', this.t('form.rsvp'), false, [
                  ['1', this.t('form.yes')],
                  ['0', this.t('form.no')],
                ]),
              ]
            : []),
          ...(def.consent ? [field('consent', 'checkbox', this.t('form.consent'))] : []),
        ]
      : [];
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const def = this.#def;
    // The flag is set before the first await: a double click never registers twice.
    if (this._busy || !def) return;
    this._busy = true;
    this._errors = {};
    const { api, _eventID: eventID } = this;
    // The custom fields' answers, and the other controls as parameters (those without a value are not sent).
    const answers = [];
    const body: Record<string, string> = {};
    for (const f of this.#fields()) {
      const value = this.#value(f);
      if (f.key === undefined) body[f.name === 'tag' ? 'tagIDs' : f.name] = String(value).trim();
      else if (String(value).trim()) answers.push({ feedbackID: f.name.slice(1), value });
    }
    body.feedbackContent = JSON.stringify(answers);
    // The platform's invite is the invitee's e-mail: the one of the link, else the one typed.
    if (def.inviteRequired === '1') body.invite = this.#invite || body.email;
    if (def.consent) body.consent ||= '0';
    // The guests part (guests.ts) keeps its list as JSON text.
    body.guests = this._values.guests as string;
    // The form's language is the attendee's: their confirmation e-mail and pages speak it.
    body.language = this.language;
    try {
      const [row] = await call(api, 'form.respondRegistration', { eventID, grant: grantOf(api, eventID!) }, body);
      writeJson('sessionStorage', this.#draft, undefined);
      this._values = {};
      this._s = (await import('./refusal.ts').catch(() => undefined))?.success;
      this._result = row;
      this.dispatchEvent(
        new PodiumRegisteredEvent({
          eventID: eventID!,
          personID: +(row.personID as string),
          email: row.email as string,
          approved: row.approved === '1',
          applied: row.approved === '-1',
          duplicate: row.duplicate === '1',
        }),
      );
    } catch (err) {
      await this.#showError(this._fail('form.respondRegistration', err));
    }
    this._busy = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[aria-invalid=true], [tabindex="-1"]')?.focus();
  }

  /**
   * A failed registration's message: the platform's refusal next to the control it is about (refusal.ts,
   * loaded now), else above the button; a failure to reach the platform in the visitor's language.
   */
  async #showError(error: PodiumApiError): Promise<void> {
    const { status, message } = error;
    this._errors =
      !status || status == 429 || status > 499
        ? { '': this._errorText(error) }
        : await import('./refusal.ts').then(
            (m) =>
              m.refusal(
                message,
                this.#fields().map((f) => f.name),
                this,
              ),
            () => ({ '': message }),
          );
  }

  #control(f: Field): TemplateResult {
    const { name, type, required, help } = f;
    const v = this.#value(f);
    const error = this._errors[name];
    const describedBy = [help && `h-${name}`, error && `e-${name}`].filter(Boolean).join(' ') || nothing;
    // 'false' until refused: Chromium says a required choice left empty is invalid before anything is sent.
    const invalid = error ? 'true' : 'false';
    const label = html`${f.label}${
      required
        ? html`<span class="required" aria-hidden="true"> *</span>`
        : // (The space inside the span: Chromium leaves one between inline nodes out of the field's name.)
          html`<span class="muted"> (${this.t('form.optional')})</span>`
    }`;
    const after = html`${help ? html`<div class="help muted" id="h-${name}" part="help">${organizerHTML(help)}</div>` : nothing}${
      error ? html`<p class="error" id="e-${name}" part="error">${error}</p>` : nothing
    }`;
    if (type === 'checkbox')
      return html`<div class="field" part="field">
        <div class="check">
          <input
            type="checkbox"
            id=${name}
            name=${name}
            ?required=${required}
            aria-invalid=${invalid}
            aria-describedby=${describedBy}
            .checked=${v === '1'}
          /><label for=${name} part="label">${label}</label>
        </div>
        ${after}
      </div>`;
    if (type === 'multiselect')
      return html`<fieldset class="field" part="field" aria-describedby=${describedBy}>
        <legend part="label">
          ${label}${required ? html`<span class="sr-only">(${this.t('form.required')})</span>` : nothing}
        </legend>
        ${f.options.map(
          ([o], i) =>
            html`<div class="check">
              <input
                type="checkbox"
                id="${name}-${i}"
                name=${name}
                value=${o}
                aria-invalid=${invalid}
                .checked=${[v].flat().includes(o)}
              /><label for="${name}-${i}">${o}</label>
            </div>`,
        )}
        ${after}
      </fieldset>`;
    // The platform's field types are input types, but for telephone.
    return html`<div class="field" part="field">
      <label for=${name} part="label">${label}</label>${
        type === 'select'
          ? html`<select
              id=${name}
              name=${name}
              part="input"
              ?required=${required}
              aria-invalid=${invalid}
              aria-describedby=${describedBy}
            >
              <option value="">${this.t('form.select')}</option>
              ${f.options.map(([o, l = o]) => html`<option value=${o} ?selected=${v === o}>${l}</option>`)}
            </select>`
          : type === 'textarea'
            ? html`<textarea
                id=${name}
                name=${name}
                part="input"
                rows="4"
                maxlength="10000"
                ?required=${required}
                aria-invalid=${invalid}
                aria-describedby=${describedBy}
                .value=${v}
              ></textarea>`
            : html`<input
                id=${name}
                name=${name}
                part="input"
                type=${type === 'telephone' ? 'tel' : type}
                step=${type === 'number' ? 'any' : nothing}
                maxlength=${f.key === undefined ? 100 : 1000}
                autocomplete=${AUTOCOMPLETE[name] ?? (type === 'telephone' ? 'tel' : 'off')}
                ?required=${required}
                aria-invalid=${invalid}
                aria-describedby=${describedBy}
                .value=${v}
              />`
      }${after}
    </div>`;
  }

  protected override content(): TemplateResult {
    const read = this.#form?.value;
    const def = read?.data;
    const r = this._result;
    if (read?.status === 'locked') return this._status(this.t('event.private'));
    if (read?.status === 'error') return this._status(this._errorText(read.error!), () => this.#form?.store.reload());
    if (!def) return this._status(this.t('common.loading'));
    // The panel after registering (success.ts), loaded with the answer; should that load fail, a title.
    if (r) return this._s?.(this, def, r, html) ?? this._status(this.t('form.registered'));
    if (def.acceptsRegistrations !== '1')
      return this._status(this.t(REASON[def.reason as keyof typeof REASON] ?? 'form.closed'));
    const formError = this._errors[''];
    return html`<form part="form" @submit=${this.#submit} @input=${this.#onInput} @change=${this.#onInput}>
        ${def.inviteRequired === '1' && !this.#invite ? html`<p class="muted">${this.t('form.inviteRequired')}</p>` : nothing}
        ${this.#fields().map((f) => this.#control(f))}
        ${
          +(def.guestsForMember as string)
            ? (this._g?.(this, def, html) ?? void import('./refusal.ts').then((m) => (this._g = m.guests)))
            : nothing
        }
        ${formError ? html`<p class="error" part="error" role="alert" tabindex="-1">${formError}</p>` : nothing}
        <button class="button" part="button" aria-disabled=${this._busy}>
          ${this.t(this._busy ? 'form.submitting' : 'form.submit')}
        </button>
      </form>
      ${
        this._l?.(this, html) ??
        html`<button
          type="button"
          class="link"
          part="button"
          @click=${() => void import('./refusal.ts').then((m) => (this._l = m.link))}
        >
          ${this.t('form.haveLink')}
        </button>`
      }`;
  }
}

PodiumRegistration.define('podium-registration');

declare global {
  interface HTMLElementTagNameMap {
    'podium-registration': PodiumRegistration;
  }
}
