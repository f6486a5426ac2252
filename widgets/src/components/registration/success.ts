// The panel after a registration goes through (approved 1), lands on the waiting list (0) or records an
// application (-1). Shown once a registration's answer is in — the platform answered, so this chunk of
// the form's rarer paths (refusal.ts) can load too — which keeps its messages out of the form's first
// download (issue 18 made room there for "Already registered? Get your link"). Like guests.ts it imports
// neither Lit nor the catalogue (podium:messages-via-host: the build gives it its English messages).

import type { html as Html, TemplateResult } from 'lit';
import type { MessageKey, MessageVars } from '../../internal/locale.ts';
import { link } from './link.ts';

declare const podiumOwnMessages$: Record<string, string> | undefined;

interface Form {
  t(key: MessageKey, vars?: MessageVars): string;
  language: string;
}

export function success(
  el: unknown,
  def: Record<string, unknown>,
  r: Record<string, unknown>,
  html: typeof Html,
): TemplateResult {
  const form = el as Form;
  const own = typeof podiumOwnMessages$ === 'undefined' || form.language !== 'en' ? undefined : podiumOwnMessages$;
  const t = (key: MessageKey, vars: MessageVars = {}) =>
    own ? own[key].replace(/\{(\w+)\}/g, (_, n: string) => String(vars[n])) : form.t(key, vars);
  // approved: 1 registered, 0 on the waiting list, -1 an application the organizer decides on (an
  // applicant sending again is a duplicate too, but is told about the application). A repeat's state
  // is told only to the person and the organizer: to a visitor (no token: this form) it is '', and the
  // panel says only that the address was used already (for an application, where the event approves
  // each registration) and where to look (docs/api/registration.md "Double submit").
  const untold = r.duplicate === '1' && r.approved === '';
  const [title, text] = untold
    ? ([def.approvalRequired === '1' ? 'form.applied' : 'form.alreadyRegistered', 'form.alreadyRegisteredText'] as const) // prettier-ignore
    : r.approved === '-1'
      ? (['form.applied', 'form.appliedText'] as const)
      : r.approved === '0'
        ? (['form.waitingList', 'form.waitingListText'] as const)
        : // An e-mail is promised only when this registration queued one (the answer's `emailed`).
          (['form.registered', r.emailed === '1' ? 'form.registeredText' : 'form.registeredNoMail'] as const);
  const again = r.duplicate === '1' && r.approved !== '-1';
  // Registered before: whoever lost that e-mail gets the way to their registration here, the address
  // filled in (link.ts), after the panel (a form is no part of a status message).
  return html`<div class="panel" part="success" role="status" tabindex="-1">
      <slot name="success">
        <h2>${t(again && !untold ? 'form.alreadyRegistered' : title)}</h2>
        <p>${t(text, { event: def.name as string, email: r.email as string })}</p>
      </slot>
    </div>
    ${again ? link(el, html, r.email as string) : ''}`;
}
