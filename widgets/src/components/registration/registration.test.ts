import { setViewport } from '@web/test-runner-commands';
import './registration.ts';
import { PodiumRegistration } from './registration.ts';
import { setGrant } from '../../stores/grant.ts';
import {
  $,
  $$,
  admin,
  assert,
  accessibleNodes,
  check,
  equal,
  expectAccessible,
  mount,
  recordFetches,
  setUp,
  type,
  until,
} from '../../../test/helpers.ts';

const info = setUp();
let n = 0;
/** A fresh e-mail for each registration. */
const email = () => `visitor${Date.now()}${n++}@widgets.test`;

const registration = (attributes: string) =>
  mount<PodiumRegistration>(`<podium-registration api="${info.api}" ${attributes}></podium-registration>`);
const formOf = async (el: PodiumRegistration) => until(() => $<HTMLFormElement>(el, 'form'), 'the form');
const control = <T extends HTMLElement = HTMLInputElement>(el: PodiumRegistration, name: string) =>
  $<T>(el, `[name="${name}"]`)!;

/** Fills the fields the summit demo form requires. */
async function fillSummit(el: PodiumRegistration, mail = email()) {
  await formOf(el);
  type(control(el, 'firstName'), 'Ada');
  type(control(el, 'lastName'), 'Lovelace');
  type(control(el, 'email'), mail);
  type(control<HTMLSelectElement>(el, 'f1'), '11-50');
  return mail;
}

const submit = (el: PodiumRegistration) => $<HTMLButtonElement>(el, '[part="button"]')!.click();

describe('<podium-registration>', () => {
  it('renders the form of an event given by ID, accessibly', async () => {
    const el = registration('event="1"');
    await formOf(el);
    const labels = $$(el, 'label').map((l) => l.textContent!.replace(/\s+/g, ' ').trim());
    assert(labels.includes('First name *'), labels.join('|'));
    assert(labels.includes('Company size *'), labels.join('|'));
    assert(
      labels.some((l) => l.startsWith('Dietary needs (optional)')),
      labels.join('|'),
    );
    // As a screen reader says it (Chromium drops a space between inline nodes from a name), and nothing
    // said to be invalid before it was sent (Chromium says so of a required choice left empty).
    const nodes = await accessibleNodes(['textbox', 'combobox', 'checkbox', 'radio']);
    const names = nodes.map((n) => n.name);
    assert(names.includes('Dietary needs (optional)'), names.join('|'));
    equal(
      nodes.filter((n) => n.invalid).map((n) => n.name),
      [],
      'nothing invalid yet',
    );
    equal(
      $$<HTMLOptionElement>(el, '[name="f1"] option').map((o) => o.value),
      ['', '1-10', '11-50', '51-200', 'More than 200'],
    );
    assert(control(el, 'f1').hasAttribute('required'), 'a required field is required');
    equal(
      $$<HTMLOptionElement>(el, '[name="tag"] option').map((o) => o.textContent!.trim()),
      ['Choose…', 'Attendee', 'Press', 'Student'],
    );
    await expectAccessible(el);
  });

  it("takes the page's danger colour for required marks and refusals (a dark theme needs a lighter red)", async () => {
    // themeVars() gives a red readable on the page's background (src/shared/theme.ts): on #111111 the
    // default #b42318 is 2.9:1, #ca6c66 is 4.5:1 and more.
    const el = registration('event="1" style="--podium-color-danger: #ca6c66; --podium-color-bg: #111111"');
    await formOf(el);
    equal(getComputedStyle($(el, '.required')!).color, 'rgb(202, 108, 102)');
    const plain = registration('event="1"');
    await formOf(plain);
    equal(getComputedStyle($(plain, '.required')!).color, 'rgb(180, 35, 24)', 'the default: #b42318');
  });

  it('"Already registered? Get your link": loaded when opened, focus on the address, one answer for any address', async () => {
    const el = registration('event="1"');
    await formOf(el);
    assert(!$(el, '#lk'), 'closed at first');
    const fetches = recordFetches();
    try {
      const open = $$<HTMLButtonElement>(el, 'button').find((b) => /Get your link/.test(b.textContent!))!;
      equal(open.type, 'button', 'opening it submits nothing');
      // Looks like a link (not the browser's grey button), as big a target as the other controls.
      const look = getComputedStyle(open);
      equal(look.backgroundColor, 'rgba(0, 0, 0, 0)');
      equal(look.textDecorationLine, 'underline');
      assert(open.getBoundingClientRect().height >= 44, `${open.getBoundingClientRect().height} px high`);
      open.click();
      const input = await until(() => $<HTMLInputElement>(el, '#lk'), 'the address field');
      await until(() => (el.shadowRoot!.activeElement === input ? true : undefined), 'focus on the address');
      equal(input.type, 'email');
      const answers: string[] = [];
      for (const address of ['nobody@widgets.test', 'ada@example.com']) {
        type(input, address);
        $<HTMLFormElement>(el, 'form[part="link"]')!.requestSubmit();
        const status = await until(() => $(el, '#lk-s'), 'the answer');
        await until(() => (el.shadowRoot!.activeElement === status ? true : undefined), 'focus on the answer');
        answers.push(status.textContent!.trim());
        status.remove();
      }
      equal(answers[0], answers[1], 'the same sentence whatever the address');
      assert(/If this address is registered/.test(answers[0]), answers[0]);
      const asked = fetches.calls.filter((c) => c.url.includes('person/requestLink'));
      equal(asked.length, 2);
      equal(asked[0].method, 'POST');
      await expectAccessible(el);
    } finally {
      fetches.restore();
    }
  });

  it('finds the event by company/event nickname', async () => {
    const el = registration('event="demo/summit"');
    await formOf(el);
    assert(control(el, 'f1'), 'the summit form');
  });

  it('renders a custom field of every type, the help HTML and the consent', async () => {
    const { eventID, fields } = info.form;
    const el = registration(`event="${eventID}"`);
    await formOf(el);
    const tag = (type: string) => control(el, `f${fields[type]}`);
    equal(tag('text').type, 'text');
    equal(tag('textarea').tagName, 'TEXTAREA');
    equal(tag('select').tagName, 'SELECT');
    equal($$(el, `[name="f${fields.multiselect}"]`).length, 3, 'one box per option');
    equal(tag('checkbox').type, 'checkbox');
    equal(tag('date').type, 'date');
    equal(tag('number').type, 'number');
    equal(tag('email').type, 'email');
    equal(tag('telephone').type, 'tel');
    equal(tag('url').type, 'url');
    assert($(el, `#h-f${fields.url} strong`), 'help text is the platform HTML');
    assert(tag('url').getAttribute('aria-describedby') === `h-f${fields.url}`, 'help described');
    assert(
      $<HTMLAnchorElement>(el, '#h-consent a')!.href === 'https://example.com/privacy',
      'consent text with its link',
    );
    assert(control(el, 'consent').required, 'consent is required');
    await expectAccessible(el);
  });

  it('registers: podium-registered with the personID, a success state, the attendee exists', async () => {
    const el = registration('event="1"');
    const mail = await fillSummit(el);
    const events: CustomEvent[] = [];
    el.addEventListener('podium-registered', (e) => events.push(e));
    submit(el);
    const success = await until(() => $(el, '[part="success"]'), 'the success message');
    assert(/registered/i.test(success.textContent!), success.textContent!);
    assert(success.textContent!.includes(mail), 'names the e-mail');
    equal(events.length, 1);
    const { personID, approved, applied, duplicate } = events[0].detail;
    assert(personID > 0, 'personID');
    equal([approved, applied, duplicate], [true, false, false]);
    const found = await admin('event.person.find', { eventID: 1, selection: 'all', email: mail });
    equal(
      found.data.map((p) => p.personID),
      [String(personID)],
    );
    equal(sessionStorage.length, 0, 'the draft is gone after registering');
    await expectAccessible(el);
  });

  it("registers in the form's language: the attendee's confirmation e-mail and pages speak it", async () => {
    const el = registration('event="1" locale="es"');
    const mail = await fillSummit(el);
    submit(el);
    await until(() => $(el, '[part="success"]'), 'the success message');
    const found = await admin('event.person.find', { eventID: 1, selection: 'all', email: mail });
    equal(
      found.data.map((p) => p.language),
      ['es'],
    );
  });

  it('registering again with the same address offers the link to that registration, the address filled in', async () => {
    const first = registration('event="1"');
    const mail = await fillSummit(first);
    submit(first);
    await until(() => $(first, '[part="success"]'), 'the first registration');
    const el = registration('event="1"');
    await fillSummit(el, mail);
    submit(el);
    const panel = await until(() => $(el, '[part="success"]'), 'the panel');
    assert(/already registered/i.test(panel.textContent!), panel.textContent!);
    const input = await until(() => $<HTMLInputElement>(el, '#lk'), 'the link form');
    equal(input.value, mail);
    assert(el.shadowRoot!.activeElement !== input, 'the focus is left to the panel');
    const fetches = recordFetches();
    try {
      $<HTMLFormElement>(el, 'form[part="link"]')!.requestSubmit();
      const status = await until(() => $(el, '#lk-s'), 'the answer');
      assert(/If this address is registered/.test(status.textContent!), status.textContent!);
      const asked = fetches.calls.filter((c) => c.url.includes('person/requestLink'));
      equal(asked.length, 1);
      equal(new URLSearchParams(asked[0].body).get('email'), mail);
    } finally {
      fetches.restore();
    }
    await expectAccessible(el);
  });

  it('promises an e-mail only when the registration queued one (the company sends no confirmations here)', async () => {
    const [event] = (await admin('event.get', { eventID: 1 })).data;
    const tool = (value: string) =>
      admin('company.tool.edit', { companyID: String(event.companyID), key: 'confirmationEmail' }, { value });
    equal((await tool('0')).status, 200);
    try {
      const el = registration('event="1"');
      const mail = await fillSummit(el);
      submit(el);
      const success = await until(() => $(el, '[part="success"]'), 'the success message');
      assert(/registered/i.test(success.textContent!), success.textContent!);
      assert(!success.textContent!.includes(mail) && !/sent/i.test(success.textContent!), success.textContent!);
      await expectAccessible(el);
    } finally {
      await tool('1');
    }
  });

  it('offers "add a guest" when the event allows guests and registers them with the attendee', async () => {
    const made = await admin(
      'company.event.bind',
      { companyID: 1 },
      { name: 'Guests', nickname: `guests${Date.now()}` },
    );
    const eventID = made.data[0].eventID as string;
    await admin('event.edit', { eventID, key: 'visible' }, { value: '1' });
    for (const [key, value] of [
      ['guestsForMember', '2'],
      ['capacity', '10'],
    ])
      await admin('form.edit', { eventID, key }, { value });
    const el = registration(`event="${eventID}"`);
    await formOf(el);
    const mail = email();
    type(control(el, 'firstName'), 'Ada');
    type(control(el, 'lastName'), 'Lovelace');
    type(control(el, 'email'), mail);
    const add = () => until(() => $<HTMLButtonElement>(el, '#add-guest'), 'the add-a-guest button');
    (await add()).click();
    const first = await until(() => $<HTMLInputElement>(el, '#guest-0'), "the first guest's name");
    await until(() => el.shadowRoot!.activeElement === first, 'focus on the new guest');
    type(first, 'Grace Hopper');
    (await add()).click();
    type(await until(() => $<HTMLInputElement>(el, '#guest-1'), 'the second guest'), 'Alan Turing');
    type($<HTMLInputElement>(el, '#guest-1-email')!, 'alan@widgets.test');
    await el.updateComplete;
    equal($(el, '#add-guest'), null, 'no more than guestsForMember guests');
    const names = (await accessibleNodes(['textbox'])).map((n) => n.name);
    assert(names.includes('E-mail of guest 2 (optional)'), names.join('|'));
    equal(first.value, 'Grace Hopper', 'what was typed stays through updates');
    await expectAccessible(el);
    // Remove the first: the second keeps what was typed.
    [...$$<HTMLButtonElement>(el, 'button[type="button"]')].find((b) => /Remove guest 1/.test(b.textContent!))!.click();
    await el.updateComplete;
    equal($<HTMLInputElement>(el, '#guest-0')!.value, 'Alan Turing');
    $<HTMLButtonElement>(el, 'form > button:not([type])')!.click();
    const success = await until(() => $(el, '[part="success"]'), 'the success message');
    assert(/registered/i.test(success.textContent!), success.textContent!);
    const person = await admin('event.person.find', { eventID, selection: 'all', email: mail });
    const hostID = person.data[0].personID as string;
    const bound = await admin('event.guest.find', { eventID, hostID });
    equal(
      bound.data.map((g) => [g.name, g.email]),
      [['Alan Turing', 'alan@widgets.test']],
    );
    const form = await admin('form.get', { eventID });
    equal(form.data[0].remaining, '8', 'the attendee and the guest take places');
  });

  it('offers no guests where the event takes none, or records applications', async () => {
    const el = registration('event="1"');
    await formOf(el);
    await new Promise((r) => setTimeout(r, 200));
    equal($(el, '#add-guest'), null);
  });

  it('tells an applicant of an event that needs approval that the application was received', async () => {
    const made = await admin(
      'company.event.bind',
      { companyID: 1 },
      { name: 'Approval', nickname: `approval${Date.now()}` },
    );
    const eventID = made.data[0].eventID as string;
    await admin('event.edit', { eventID, key: 'visible' }, { value: '1' });
    await admin('form.edit', { eventID, key: 'approvalRequired' }, { value: '1' });
    const el = registration(`event="${eventID}"`);
    await formOf(el);
    const mail = email();
    type(control(el, 'firstName'), 'Ada');
    type(control(el, 'lastName'), 'Lovelace');
    type(control(el, 'email'), mail);
    const events: CustomEvent[] = [];
    el.addEventListener('podium-registered', (e) => events.push(e));
    submit(el);
    const panel = await until(() => $(el, '[part="success"]'), 'the application panel');
    const text = panel.textContent!.replace(/\s+/g, ' ');
    assert(/application received/i.test(text), text);
    assert(!/registered/i.test(text), `not registered: ${text}`);
    assert(text.includes(mail), 'names the e-mail');
    equal(panel.getAttribute('role'), 'status', 'announced');
    equal(el.shadowRoot!.activeElement, panel, 'focus on the panel');
    equal(events.length, 1);
    const { personID, approved, applied, duplicate } = events[0].detail;
    assert(personID > 0, 'personID');
    equal([approved, applied, duplicate], [false, true, false]);
    const applicants = await admin('event.applicant.find', { eventID });
    equal(
      applicants.data.map((a) => [a.personID, a.approved]),
      [[String(personID), '0']],
      'an application waiting for a decision',
    );
    const attendees = await admin('event.person.find', { eventID, selection: 'all', email: mail });
    equal(attendees.data.length, 0, 'not an attendee');
    await expectAccessible(el);
    // Sending again while the application waits is an application received, not "already registered"
    // (the platform tells a visitor no more: not whose it is, nor that it waits), with where to look.
    const again = registration(`event="${eventID}"`);
    await formOf(again);
    type(control(again, 'firstName'), 'Ada');
    type(control(again, 'lastName'), 'Lovelace');
    type(control(again, 'email'), mail);
    submit(again);
    const second = await until(() => $(again, '[part="success"]'), 'the second application panel');
    const said = second.textContent!.replace(/\s+/g, ' ');
    assert(/application received/i.test(said), said);
    assert(said.includes('look for the details in your mailbox'), said);
    assert(!/already registered|when the organizer decides/i.test(said), said);
  });

  it('lets the browser validate first: an incomplete form sends nothing', async () => {
    const el = registration('event="1"');
    const form = await formOf(el);
    const fetches = recordFetches();
    try {
      submit(el);
      await new Promise((r) => setTimeout(r, 200));
      equal(fetches.calls.length, 0);
      assert(!form.checkValidity(), 'the form is invalid');
    } finally {
      fetches.restore();
    }
  });

  it("maps the platform's 400 to the field, keeps what was typed, focuses it", async () => {
    const el = registration('event="1"');
    await fillSummit(el, 'ada@localhost'); // the browser accepts it, the platform does not
    type(control(el, 'f2'), 'vegetarian');
    const errors: CustomEvent[] = [];
    el.addEventListener('podium-error', (e) => errors.push(e));
    submit(el);
    const message = await until(() => $(el, '#e-email'), 'the e-mail error');
    assert(/e-mail/i.test(message.textContent!), message.textContent!);
    const input = control(el, 'email');
    equal(input.getAttribute('aria-invalid'), 'true');
    assert(input.getAttribute('aria-describedby')!.includes('e-email'), 'the message describes the field');
    equal(el.shadowRoot!.activeElement, input, 'focus on the field');
    equal(
      [input.value, control(el, 'firstName').value, control(el, 'f2').value],
      ['ada@localhost', 'Ada', 'vegetarian'],
    );
    equal(errors[0].detail.status, 400);
    equal(errors[0].detail.operation, 'form.respondRegistration');
    await expectAccessible(el);
    // Fixing the field clears its message.
    type(input, email());
    await el.updateComplete;
    assert(!$(el, '#e-email'), 'message cleared');
    equal(input.getAttribute('aria-invalid'), 'false', 'valid again');
  });

  it('wraps a long e-mail inside the panel on a phone: the host page never scrolls sideways', async () => {
    await setViewport({ width: 390, height: 844 });
    try {
      // About 90 characters, the first 55 without a space or a hyphen: wider than a 390 px phone.
      const mail = `maria.fernanda.albuquerque.${Date.now()}${n++}@departamento-de-eventos.universidade.example.com`;
      const first = registration('event="1"');
      await fillSummit(first, mail);
      submit(first);
      const panel = await until(() => $(first, '[part="success"]'), 'the success message');
      assert(panel.textContent!.includes(mail), 'names the e-mail');
      const fits = (box: Element) => box.scrollWidth <= box.clientWidth;
      assert(fits(panel), `the panel is ${panel.clientWidth} px wide, its text ${panel.scrollWidth} px`);
      const page = document.documentElement;
      assert(fits(page), `the page scrolls sideways: ${page.scrollWidth} px in ${page.clientWidth} px`);
      // Again: the duplicate's panel, and the link form under it with its answer. The platform tells a
      // visitor neither whose registration it is nor its state: the panel says where to look instead.
      const again = registration('event="1"');
      await fillSummit(again, mail);
      const events: CustomEvent[] = [];
      again.addEventListener('podium-registered', (e) => events.push(e));
      submit(again);
      const duplicate = await until(() => $(again, '[part="success"]'), 'the duplicate panel');
      const said = duplicate.textContent!.replace(/\s+/g, ' ');
      assert(said.includes('This e-mail address is already registered.'), said);
      assert(said.includes('look for the details in your mailbox'), said);
      assert(!/You are registered/.test(said), `no state it was not told: ${said}`);
      const { personID, approved, applied } = events[0].detail;
      equal([personID, approved, applied, events[0].detail.duplicate], [0, false, false, true]);
      $<HTMLFormElement>(again, 'form[part="link"]')!.requestSubmit();
      const status = await until(() => $(again, '#lk-s'), 'the answer');
      for (const box of [duplicate, status, $(again, 'form[part="link"]')!]) assert(fits(box), box.outerHTML);
      assert(fits(page), `the page scrolls sideways: ${page.scrollWidth} px in ${page.clientWidth} px`);
      await expectAccessible(first);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("maps a custom field's 400 (a telephone the platform refuses) to that field", async () => {
    const { eventID, fields } = info.form;
    const el = registration(`event="${eventID}"`);
    await formOf(el);
    type(control(el, 'firstName'), 'Grace');
    type(control(el, 'lastName'), 'Hopper');
    type(control(el, 'email'), email());
    type(control<HTMLSelectElement>(el, `f${fields.select}`), '11-50');
    type(control(el, `f${fields.telephone}`), 'call me');
    check(control(el, 'consent'));
    submit(el);
    const name = `f${fields.telephone}`;
    const message = await until(() => $(el, `#e-${name}`), 'the phone error');
    assert(message.textContent!.trim().length > 0, 'a message');
    equal(control(el, name).getAttribute('aria-invalid'), 'true');
    equal(control(el, name).value, 'call me');
  });

  it('sends every type of answer, the attendee type and the consent', async () => {
    const { eventID, fields } = info.form;
    const el = registration(`event="${eventID}"`);
    await formOf(el);
    const mail = email();
    type(control(el, 'firstName'), 'Alan');
    type(control(el, 'lastName'), 'Turing');
    type(control(el, 'email'), mail);
    type(control(el, `f${fields.text}`), 'Engineer');
    type(control<HTMLTextAreaElement>(el, `f${fields.textarea}`), 'Line one\nLine two');
    type(control<HTMLSelectElement>(el, `f${fields.select}`), 'More than 50');
    check($<HTMLInputElement>(el, `#f${fields.multiselect}-0`)!);
    check($<HTMLInputElement>(el, `#f${fields.multiselect}-2`)!);
    check(control(el, `f${fields.checkbox}`));
    type(control(el, `f${fields.date}`), '2030-05-17');
    type(control(el, `f${fields.number}`), '2');
    type(control(el, `f${fields.email}`), 'alan@work.test');
    type(control(el, `f${fields.telephone}`), '+44 20 7946 0000');
    type(control(el, `f${fields.url}`), 'https://turing.example');
    const tag = control<HTMLSelectElement>(el, 'tag');
    type(tag, tag.options[1].value);
    check(control(el, 'consent'));
    submit(el);
    await until(() => $(el, '[part="success"]'), 'the success message');
    const [person] = (await admin('event.person.find', { eventID, selection: 'all', email: mail })).data;
    assert(person, 'registered');
    const answers = await admin('event.person.get', { eventID, personID: String(person.personID) });
    const text = answers.text;
    for (const expected of [
      'Engineer',
      'More than 50',
      '2030-05-17',
      'alan@work.test',
      'https://turing.example',
      'Student',
    ])
      assert(text.includes(expected), `${expected} in ${text.slice(0, 2000)}`);
  });

  it('never registers twice on a double click', async () => {
    const el = registration('event="1"');
    await fillSummit(el);
    const fetches = recordFetches();
    const events: Event[] = [];
    el.addEventListener('podium-registered', (e) => events.push(e));
    try {
      const button = $<HTMLButtonElement>(el, '[part="button"]')!;
      button.click();
      button.click();
      await until(() => $(el, '[part="success"]'), 'the success message');
      equal(fetches.calls.filter((c) => c.method === 'POST').length, 1, 'one POST');
      equal(events.length, 1, 'one event');
    } finally {
      fetches.restore();
    }
  });

  it('keeps what was typed through a reload of the page during the visit', async () => {
    const first = registration('event="1"');
    await fillSummit(first, 'kept@widgets.test');
    type(control(first, 'f2'), 'no nuts');
    first.parentElement!.remove(); // the page goes away; sessionStorage stays
    const again = registration('event="1"');
    await formOf(again);
    equal(
      ['firstName', 'lastName', 'email', 'f1', 'f2'].map((name) => control(again, name).value),
      ['Ada', 'Lovelace', 'kept@widgets.test', '11-50', 'no nuts'],
    );
  });

  it('prefills from attributes (data-* by API key) and takes the invite from the page URL', async () => {
    const before = location.href;
    history.replaceState(null, '', `${location.pathname}${location.search}&invite=invited%40widgets.test`);
    try {
      const el = registration('event="1" first-name="Mary" last-name="Shelley" data-company-size="51-200"');
      await formOf(el);
      equal(
        ['firstName', 'lastName', 'email', 'f1'].map((name) => control(el, name).value),
        ['Mary', 'Shelley', 'invited@widgets.test', '51-200'],
      );
    } finally {
      history.replaceState(null, '', before);
    }
  });

  it('speaks Portuguese and Spanish', async () => {
    const pt = registration('event="1" locale="pt"');
    await formOf(pt);
    assert($(pt, 'label[for="firstName"]')!.textContent!.includes('Nome'), 'pt');
    const es = registration('event="1" locale="es"');
    await formOf(es);
    assert($(es, '[part="button"]')!.textContent!.includes('Inscribirse'), 'es');
  });

  it('shows a closed form as closed, and asks RSVP when told to', async () => {
    const closed = await admin(
      'company.event.bind',
      { companyID: 1 },
      { name: 'Closed', nickname: `closed${Date.now()}` },
    );
    const eventID = closed.data[0].eventID as string;
    await admin('event.edit', { eventID, key: 'visible' }, { value: '1' });
    await admin('form.edit', { eventID, key: 'enrollmentOpen' }, { value: '0' });
    const el = registration(`event="${eventID}"`);
    await until(() => /closed/i.test($(el, '[part="status"]')?.textContent ?? ''), 'closed');
    assert(!$(el, 'form'), 'no form');
    await expectAccessible(el);
    const rsvp = registration('event="1" rsvp');
    await formOf(rsvp);
    equal(
      $$<HTMLOptionElement>(rsvp, '[name="rsvp"] option').map((o) => o.value),
      ['', '1', '0'],
    );
  });

  it('reports an unknown event with podium-error and a message', async () => {
    const errors: CustomEvent[] = [];
    document.addEventListener('podium-error', (e) => errors.push(e as CustomEvent), { once: true });
    const el = registration('event="999999"');
    await until(() => /not found/i.test($(el, '[part="status"]')?.textContent ?? ''), 'not found');
    equal($(el, '[part="status"]')!.getAttribute('role'), 'status', 'announced');
    equal(errors[0]?.detail.status, 404);
  });

  it("waits for a private event's grant, then shows its form", async () => {
    const el = registration(`event="${info.privateEventID}"`);
    await until(() => /private/i.test($(el, '[part="status"]')?.textContent ?? ''), 'the private message');
    const res = await fetch(`${info.api}/event/checkAccessCode?eventID=${info.privateEventID}`, {
      method: 'POST',
      body: new URLSearchParams({ accessCode: info.accessCode }),
    });
    const grant = (await res.json()).data[0].grant as string;
    setGrant(info.api, info.privateEventID, grant);
    await formOf(el);
  });

  it("takes a private event's grant from its grant attribute (the site after its access-code page)", async () => {
    setGrant(info.api, info.privateEventID, ''); // no grant in the page's store
    const res = await fetch(`${info.api}/event/checkAccessCode?eventID=${info.privateEventID}`, {
      method: 'POST',
      body: new URLSearchParams({ accessCode: info.accessCode }),
    });
    const grant = (await res.json()).data[0].grant as string;
    const el = registration(`event="${info.privateEventID}" grant="${grant}"`);
    await formOf(el);
  });

  it('works as a single-page app uses it: created, attached, configured later, moved', async () => {
    const el = document.createElement('podium-registration');
    const host = mount<HTMLDivElement>('<div></div>');
    host.append(el);
    await el.updateComplete;
    el.api = info.api;
    el.event = 'demo/summit';
    await formOf(el);
    type(control(el, 'firstName'), 'Moved');
    const other = mount<HTMLDivElement>('<div></div>');
    other.append(el); // disconnected and connected again
    await el.updateComplete;
    equal(control(el, 'firstName').value, 'Moved');
    el.event = String(info.form.eventID);
    await until(() => $(el, `[name="f${info.form.fields.url}"]`), 'the other form');
  });

  it('is defined once even when the bundle runs twice', () => {
    PodiumRegistration.define('podium-registration');
    equal(customElements.get('podium-registration'), PodiumRegistration);
  });
});
