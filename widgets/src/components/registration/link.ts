// "Already registered? Get your link" (issue 18, docs/widgets.md): an attendee who lost their way back
// asks for a one-time link to their "My registration" page (person.requestLink, docs/api/magic-links.md).
// The platform answers the same whatever the address, and so does this part: one sentence, whether or
// not a link goes out. Rare next to registering, so it comes in the form's chunk of rare paths
// (refusal.ts), loaded when the visitor opens it; like guests.ts it imports neither Lit (the form hands
// over its html tag) nor the message catalogue (podium:messages-via-host: the build gives it its English
// messages as a constant).

import type { html as Html, TemplateResult } from 'lit';
import type { MessageKey } from '../../internal/locale.ts';

/** The build's English messages of this module (widgets/build.mjs). */
declare const podiumOwnMessages$: Record<string, string> | undefined;

/** What of the form this part uses. */
interface Form {
  t(key: MessageKey): string;
  language: string;
  api: string;
  _eventID: number | undefined;
  /** This part's state (not reactive: requestUpdate): unset asking, 's' sending, 'd' done, 'e' unreachable. */
  _k?: string;
  requestUpdate(): void;
  updateComplete: Promise<boolean>;
  renderRoot: HTMLElement | DocumentFragment;
}

/** The form asking for the link; `email` fills it in (the panel of a registration already made). */
export function link(el: unknown, html: typeof Html, email?: string): TemplateResult {
  const form = el as Form;
  const own = typeof podiumOwnMessages$ === 'undefined' || form.language !== 'en' ? undefined : podiumOwnMessages$;
  const t = (key: MessageKey) => (own ? own[key] : form.t(key));
  const state = form._k;
  // Just opened: the address is what the visitor types next (keyboard users land on it). Filled in, it
  // comes under a panel that has the focus.
  if (!email && !state && !form.renderRoot.querySelector('#lk'))
    void form.updateComplete.then(() => form.renderRoot.querySelector<HTMLElement>('#lk')?.focus());
  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (state === 's') return;
    const email = new FormData(e.target as HTMLFormElement).get('email') as string;
    form._k = 's';
    form.requestUpdate();
    const base = form.api.endsWith('/') ? form.api : `${form.api}/`;
    const url = new URL(`person/requestLink?eventID=${form._eventID}`, new URL(base, location.href));
    const body = new URLSearchParams({ email, lang: form.language });
    // Any answer from the platform is the same sentence: a 429 or a 400 tells nothing about the address
    // either, and the visitor's next step is the same (their mailbox, or the organizer).
    form._k = await fetch(url, { method: 'POST', body, credentials: 'omit' }).then(
      () => 'd',
      () => 'e',
    );
    form.requestUpdate();
    await form.updateComplete;
    form.renderRoot.querySelector<HTMLElement>('#lk-s')?.focus();
  };
  return html`<form part="link" @submit=${submit}>
    <div class="field">
      <label for="lk" part="label">${t('link.email')}</label>
      <input id="lk" name="email" type="email" required autocomplete="email" part="input" .value=${email ?? ''} />
    </div>
    <button class="button" part="button" aria-disabled=${state === 's'}>${t('link.send')}</button>
    ${
      state === 'd' || state === 'e'
        ? html`<p id="lk-s" role="status" tabindex="-1">${t(state === 'd' ? 'link.sent' : 'link.failed')}</p>`
        : ''
    }
  </form>`;
}
