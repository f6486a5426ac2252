import './access-gate.ts';
import '../registration/registration.ts';
import type { PodiumAccessGate } from './access-gate.ts';
import { $grants } from '../../stores/grant.ts';
import { $, admin, assert, equal, expectAccessible, mount, setUp, type, until } from '../../../test/helpers.ts';

const info = setUp();

const gate = (event: string | number, inner = '<p id="secret">Inside</p>') =>
  mount<PodiumAccessGate>(`<podium-access-gate api="${info.api}" event="${event}">${inner}</podium-access-gate>`);

/** Whether the light-DOM content is shown (assigned to the gate's slot). */
const revealed = (el: PodiumAccessGate) => !!$<HTMLSlotElement>(el, 'slot')?.assignedElements().length;
const formOf = (el: PodiumAccessGate) => until(() => $<HTMLFormElement>(el, 'form'), 'the code form');

async function enter(el: PodiumAccessGate, code: string) {
  await formOf(el);
  type($<HTMLInputElement>(el, 'input')!, code);
  $<HTMLButtonElement>(el, 'button')!.click();
}

/** A private event of its own (wrong codes are throttled per event: this keeps the demo's usable). */
async function privateEvent(code: string) {
  const made = await admin('company.event.bind', { companyID: 1 }, { name: 'Locked', nickname: `locked${Date.now()}` });
  const eventID = made.data[0].eventID as string;
  // The code first: the platform refuses a private event without one.
  for (const [key, value] of [
    ['accessCode', code],
    ['public', '0'],
    ['visible', '1'],
  ])
    await admin('event.edit', { eventID, key }, { value });
  return Number(eventID);
}

describe('<podium-access-gate>', () => {
  it("shows a public event's content at once", async () => {
    const el = gate(1);
    await until(() => revealed(el), 'the content');
    await expectAccessible(el);
  });

  it('asks for the code of a private event, accessibly', async () => {
    const el = gate(info.privateEventID);
    const form = await formOf(el);
    assert(!revealed(el), 'content hidden');
    assert(/private/i.test(form.textContent!), form.textContent!);
    assert(form.textContent!.includes('Partner Day'), 'names the event');
    equal($<HTMLInputElement>(el, 'input')!.labels![0].textContent!.trim(), 'Access code');
    await expectAccessible(el);
  });

  it('says a wrong code is wrong, keeps the content hidden, focuses the field', async () => {
    const el = gate(info.privateEventID);
    await enter(el, info.accessCode === '1' ? '2' : '1');
    const message = await until(() => $(el, '[part="error"]:not(:empty)'), 'the message');
    assert(/wrong/i.test(message.textContent!), message.textContent!);
    equal(message.getAttribute('role'), 'alert');
    const input = $<HTMLInputElement>(el, 'input')!;
    equal(input.getAttribute('aria-invalid'), 'true');
    equal(el.shadowRoot!.activeElement, input);
    assert(!revealed(el), 'still hidden');
    await expectAccessible(el);
  });

  it('takes the wrong-code message away as a new code is typed', async () => {
    const el = gate(info.privateEventID);
    await enter(el, info.accessCode === '1' ? '2' : '1');
    await until(() => $(el, '[part="error"]:not(:empty)'), 'the message');
    type($<HTMLInputElement>(el, 'input')!, '3');
    await el.updateComplete;
    equal($(el, '[part="error"]')!.textContent!.trim(), '');
    equal($<HTMLInputElement>(el, 'input')!.getAttribute('aria-invalid'), 'false');
  });

  it('takes a code pasted with spaces around it', async () => {
    const el = gate(info.privateEventID);
    await formOf(el);
    const input = $<HTMLInputElement>(el, 'input')!;
    type(input, ` ${info.accessCode} `);
    equal(input.value, info.accessCode, 'the spaces dropped as they come');
    assert(!input.hasAttribute('maxlength'), 'no cap to cut a pasted code short');
    $<HTMLButtonElement>(el, 'button')!.click();
    await until(() => revealed(el), 'the content');
    $grants.set({});
  });

  it('lets the browser refuse a code that is not a number', async () => {
    const el = gate(info.privateEventID);
    await enter(el, 'abc');
    await new Promise((r) => setTimeout(r, 200));
    assert(!$<HTMLFormElement>(el, 'form')!.checkValidity(), 'invalid');
    equal($(el, '[part="error"]')!.textContent!.trim(), '');
  });

  it('unlocks with the right code: the content shows, the grant reaches the widgets inside', async () => {
    const el = gate(
      'demo/partners',
      `<podium-registration api="${info.api}" event="${info.privateEventID}"></podium-registration>`,
    );
    const inner = el.querySelector('podium-registration')!;
    await until(() => /private/i.test(inner.shadowRoot?.textContent ?? ''), 'the registration waiting');
    const unlocked: CustomEvent[] = [];
    el.addEventListener('podium-unlocked', (e) => unlocked.push(e));
    await enter(el, info.accessCode);
    await until(() => revealed(el), 'the content');
    equal(unlocked[0].detail.eventID, info.privateEventID);
    assert(Object.values($grants.get())[0], 'a grant in the shared store');
    await until(() => inner.shadowRoot!.querySelector('form'), 'the private form');
    assert(sessionStorage.getItem('podium:grants'), 'kept for the visit');
  });

  it('moves the focus to what it reveals: the first heading, else the content as a whole', async () => {
    // The button that had the focus is gone with the form: without a move the focus falls to <body>.
    const titled = gate(info.privateEventID, '<h3 id="title">Partner program</h3><p>Inside</p>');
    await enter(titled, info.accessCode);
    await until(() => revealed(titled), 'the content');
    await until(() => document.activeElement?.id === 'title', 'the heading focused');
    equal(titled.querySelector('h3')!.getAttribute('tabindex'), '-1', 'focusable from script only');
    await expectAccessible(titled);
    titled.remove();
    $grants.set({});
    const widgets = gate(
      info.privateEventID,
      `<podium-registration api="${info.api}" event="${info.privateEventID}"></podium-registration>`,
    );
    await enter(widgets, info.accessCode);
    await until(() => revealed(widgets), 'the content');
    const content = await until(() => widgets.shadowRoot!.activeElement, 'something focused in the gate');
    equal(content.getAttribute('part'), 'content');
    equal(content.getAttribute('role'), 'group');
    equal(content.getAttribute('aria-label'), 'Partner Day', 'named after the event');
    await expectAccessible(widgets);
  });

  it('says how long to wait after too many wrong codes (429)', async () => {
    const eventID = await privateEvent('4321');
    for (let i = 0; i < 20; i++)
      await fetch(`${info.api}/event/checkAccessCode?eventID=${eventID}`, {
        method: 'POST',
        body: new URLSearchParams({ accessCode: String(1000 + i) }),
      });
    const errors: CustomEvent[] = [];
    const el = gate(eventID);
    el.addEventListener('podium-error', (e) => errors.push(e));
    await enter(el, '4321');
    const message = await until(() => $(el, '[part="error"]:not(:empty)'), 'the message');
    assert(/try again in \d+ minutes?/i.test(message.textContent!), message.textContent!);
    equal(errors[0].detail.status, 429);
    equal($(el, 'button')!.getAttribute('aria-disabled'), 'true', 'no tries while waiting');
    assert(!revealed(el), 'still hidden');
  });

  /**
   * Answers `428` to event.checkAccessCode calls without `altcha` (`always`: to every call), as the platform
   * does once an event's budget of wrong codes is spent — from one test address that budget cannot be
   * spent without first hitting the address's own limit (the real thing: tests/security/access-gate-browser.test.ts).
   * Everything else reaches the real platform. Answers the bodies sent to event.checkAccessCode.
   */
  function platformAsksForChallenge(always = false) {
    const real = window.fetch;
    const sent: URLSearchParams[] = [];
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/event/checkAccessCode')) {
        const body = new URLSearchParams(String(init?.body));
        sent.push(body);
        if (always || !body.has('altcha'))
          return new Response('428 too many wrong codes for this event: solve event.accessCode.challenge', {
            status: 428,
          });
      }
      return real(input, init);
    };
    return { sent, restore: () => (window.fetch = real) };
  }

  it('solves the challenge the platform asks for (428), saying so, and keeps the code', async () => {
    const eventID = await privateEvent('4321');
    const platform = platformAsksForChallenge();
    try {
      const el = gate(eventID);
      await enter(el, '4321');
      const status = await until(() => $(el, '#robot:not(:empty)'), 'the robot check');
      equal(status.textContent!.trim(), 'Checking you are not a robot…');
      equal(status.getAttribute('role'), 'status');
      equal($<HTMLInputElement>(el, 'input')!.value, '4321');
      await until(() => revealed(el), 'the content');
      equal(platform.sent.length, 2);
      equal(platform.sent[1].get('accessCode'), '4321');
      // ALTCHA's payload for a challenge of this very event, with the solution found.
      const payload = JSON.parse(atob(platform.sent[1].get('altcha')!));
      equal(payload.challenge.parameters.data.eventID, eventID);
      assert(Number.isInteger(payload.solution.counter) && /^[0-9a-f]{64}$/.test(payload.solution.derivedKey));
    } finally {
      platform.restore();
    }
  });

  it('says so when the check does not work out, keeping the code for another try', async () => {
    const eventID = await privateEvent('4321');
    const platform = platformAsksForChallenge(true);
    try {
      const el = gate(eventID);
      const errors: CustomEvent[] = [];
      el.addEventListener('podium-error', (e) => errors.push(e));
      await enter(el, '4321');
      const message = await until(() => $(el, '[part="error"]:not(:empty)'), 'the message');
      equal(message.textContent!.trim(), 'The check could not be completed. Try again.');
      equal(errors[0].detail.status, 428);
      equal(platform.sent.length, 2, 'one challenge, then it gives up');
      equal($<HTMLInputElement>(el, 'input')!.value, '4321');
      equal($(el, '#robot')!.textContent!.trim(), '');
      assert(!revealed(el), 'still hidden');
      await expectAccessible(el);
    } finally {
      platform.restore();
    }
  });
});
