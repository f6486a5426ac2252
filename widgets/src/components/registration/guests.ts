// "Add a guest" (docs/widgets.md): an event whose form allows guests (form.get guestsForMember > 0, no
// approval step) lets the registrant list up to that many, sent with the registration itself
// (form.respondRegistration B guests, docs/api/guests.md): the platform binds them to the new attendee
// in the same transaction, so the widget never needs the attendee's token. Only such events need it,
// so this is a chunk of its own, loaded by the form when the event allows guests. It imports nothing:
// Lit's html tag comes from the form (an import of Lit here would split Lit out of the chunk the three
// widgets share, a request and its overhead for every page). Nor the message catalogue, for the same
// reason (podium:messages-via-host): the build gives this module its English messages as a constant,
// which it reads itself; Portuguese and Spanish come through the form (their chunks hold every key the
// widgets name, these too).

import type { html as Html, TemplateResult } from 'lit';
import type { MessageKey, MessageVars } from '../../internal/locale.ts';

export interface Guest {
  name: string;
  email: string;
}

/** The build's English messages of this module (widgets/build.mjs); from sources every message is in the catalogue. */
declare const podiumOwnMessages$: Record<string, string> | undefined;

/** What of the form this part uses (its message lookup is protected: reached through this view). */
interface Form {
  t(key: MessageKey, vars?: MessageVars): string;
  language: string;
  _values: Record<string, unknown>;
  renderRoot: HTMLElement | DocumentFragment;
  updateComplete: Promise<boolean>;
}

/**
 * The guests' fieldset: a name (required) and an e-mail (optional) per guest, "Add a guest" up to the
 * event's guestsForMember; the list is kept in the form's values as the JSON text the platform takes.
 */
export function guests(el: unknown, def: Record<string, unknown>, html: typeof Html): TemplateResult | string {
  // An event that needs approval records applications, which bring no guests (docs/api/guests.md).
  if (def.approvalRequired === '1') return '';
  const max = +(def.guestsForMember as string);
  const form = el as Form;
  // Read again at each event: a handler of an earlier render must not write back an older list.
  const now = () => JSON.parse((form._values.guests as string | undefined) ?? '[]') as Guest[];
  const list = now();
  const own = typeof podiumOwnMessages$ === 'undefined' || form.language !== 'en' ? undefined : podiumOwnMessages$;
  const t = (key: MessageKey, vars: MessageVars = {}) =>
    own ? own[key].replace(/\{(\w+)\}/g, (_, n: string) => String(vars[n])) : form.t(key, vars);
  const set = (next: Guest[], focus?: string) => {
    form._values = { ...form._values, guests: JSON.stringify(next) };
    if (focus) void form.updateComplete.then(() => form.renderRoot.querySelector<HTMLElement>(focus)?.focus());
  };
  // The form keeps its own controls' values; the guests' inputs are this part's alone.
  const edit = (i: number, key: keyof Guest) => (e: Event) => {
    e.stopPropagation();
    set(now().map((g, j) => (j === i ? { ...g, [key]: (e.target as HTMLInputElement).value } : g)));
  };
  return html`<fieldset class="field" part="field" aria-describedby="guests-help">
    <legend part="label">${t('guests.title')}</legend>
    <p class="help muted" id="guests-help" part="help">${t('guests.help', { count: max })}</p>
    ${list.map(
      (g, i) =>
        html`<div class="field" part="field">
            <label for="guest-${i}" part="label">${t('guests.name', { n: i + 1 })}</label>
            <input
              id="guest-${i}"
              part="input"
              required
              maxlength="200"
              autocomplete="off"
              .value=${g.name}
              @input=${edit(i, 'name')}
            />
          </div>
          <div class="field" part="field">
            <label for="guest-${i}-email" part="label"
              >${t('guests.email', { n: i + 1 })} <span class="muted">(${t('form.optional')})</span></label
            >
            <input
              id="guest-${i}-email"
              part="input"
              type="email"
              maxlength="320"
              autocomplete="off"
              .value=${g.email}
              @input=${edit(i, 'email')}
            />
          </div>
          <button
            type="button"
            class="button secondary"
            part="button"
            @click=${() =>
              set(
                now().filter((_, j) => j !== i),
                '#add-guest',
              )}
          >
            ${t('guests.remove', { n: i + 1 })}
          </button>`,
    )}
    ${
      list.length < max
        ? html`<button
            type="button"
            id="add-guest"
            class="button secondary"
            part="button"
            @click=${() => set([...now(), { name: '', email: '' }], `#guest-${list.length}`)}
          >
            ${t('guests.add')}
          </button>`
        : ''
    }
  </fieldset>`;
}
