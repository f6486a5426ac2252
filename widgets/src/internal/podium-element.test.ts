// What every widget has from its base (PodiumElement), tried on the three: an event that could not be
// read offers "Try again", which recovers once the platform answers.
import '../components/registration/registration.ts';
import '../components/agenda/agenda.ts';
import '../components/access-gate/access-gate.ts';
import { sendKeys } from '@web/test-runner-commands';
import { $, admin, assert, equal, expectAccessible, mount, setUp, until } from '../../test/helpers.ts';

const info = setUp();

/**
 * From now until restored, calls of the operations at `paths` (e.g. `event/get`) fail as they do when
 * the platform cannot be reached; the others reach it.
 */
function unreachable(...paths: string[]): { restore: () => void } {
  const real = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    paths.some((p) => String(input).includes(`/${p}?`))
      ? Promise.reject(new TypeError('Failed to fetch'))
      : real(input, init);
  return { restore: () => (window.fetch = real) };
}

/** A public event of its own, open for registrations (the page has read nothing of it yet). */
async function freshEvent(): Promise<string> {
  const made = await admin('company.event.bind', { companyID: 1 }, { name: 'Retry', nickname: `retry${Date.now()}` });
  const eventID = made.data[0].eventID as string;
  await admin('event.edit', { eventID, key: 'visible' }, { value: '1' });
  return eventID;
}

const widget = (tag: string, event: string | number, inner = '') =>
  mount<HTMLElement>(`<${tag} api="${info.api}" event="${event}">${inner}</${tag}>`);

/** The status panel's "Try again", once shown. */
const tryAgain = (el: Element) =>
  until(() => $<HTMLButtonElement>(el, '[part="status"] button'), `Try again in <${el.localName}>`);

describe('PodiumElement: failed reads and "Try again"', () => {
  it('offers Try again in every widget when the event cannot be read, and recovers once it can', async () => {
    const eventID = await freshEvent();
    const down = unreachable('event/get');
    const errors: CustomEvent[] = [];
    const onError = (e: Event) => errors.push(e as CustomEvent);
    document.addEventListener('podium-error', onError);
    const widgets = ['podium-registration', 'podium-agenda', 'podium-access-gate'].map((tag) =>
      widget(tag, eventID, tag === 'podium-access-gate' ? '<p id="inside">Inside</p>' : ''),
    );
    try {
      for (const el of widgets) {
        const button = await tryAgain(el);
        equal(button.textContent!.trim(), 'Try again');
        const status = $(el, '[part="status"]')!;
        assert(/Could not connect/.test(status.textContent!), status.textContent!);
        equal(status.getAttribute('role'), 'status', 'announced');
        await expectAccessible(el);
      }
      assert(
        errors.length >= 3 && errors.every((e) => e.detail.operation === 'event.get' && e.detail.status === 0),
        JSON.stringify(errors.map((e) => e.detail)),
      );
    } finally {
      down.restore();
      document.removeEventListener('podium-error', onError);
    }
    const [registration, agenda, gate] = widgets;
    // A tabindex the page gave an element stays (the others become focusable from script only).
    gate.setAttribute('tabindex', '0');
    const recovered: [HTMLElement, () => unknown, string][] = [
      [registration, () => $(registration, '#firstName'), 'the form'],
      [
        agenda,
        () => /not been published/.test($(agenda, '[part="status"]')?.textContent ?? ''),
        "the agenda's program",
      ],
      [gate, () => $<HTMLSlotElement>(gate, 'slot')?.assignedElements().length, "the gate's content"],
    ];
    for (const [el, ready, what] of recovered) {
      // Pressed from the keyboard: the button goes with its panel, and the focus stays in the widget.
      const button = await tryAgain(el);
      button.focus();
      await sendKeys({ press: 'Enter' });
      await until(ready, what);
      const at = document.activeElement;
      assert(at === el, `the focus in <${el.localName}>: on <${at?.localName}>`);
      equal(el.getAttribute('tabindex'), el === gate ? '0' : '-1');
      if (el !== registration) continue;
      // The next Tab is the form's first control.
      await sendKeys({ press: 'Tab' });
      const next = registration.shadowRoot!.activeElement;
      assert(next === $(registration, '#firstName'), `Tab: the first field, not ${next?.outerHTML.slice(0, 80)}`);
    }
    for (const el of widgets) await expectAccessible(el);
  });
});
