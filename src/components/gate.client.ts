// The access-code page in the browser (bundled by Astro into a file; the CSP allows no inline script).
// It acts only when the platform asked for a solved challenge (the form carries data-challenge): then
// it says "Checking you are not a robot…", fetches a challenge from the platform, solves it here
// (ALTCHA, Web Crypto, about a second; the solver is loaded only now), and checks the visitor's code with
// the platform itself, sending the solution. The right code's grant is posted to the site's /access,
// which keeps it as the grant cookie; a wrong code is said here and the code stays in the field. Nothing
// is sent anywhere but the platform and this site.

interface Row {
  correct?: string;
  grant?: string;
  challenge?: string;
}

/** The first row of an answer of the platform, or undefined for an error line. */
async function rowOf(res: Response): Promise<Row | undefined> {
  if (!res.ok) return undefined;
  const body = (await res.json()) as { data?: Row[] };
  return body.data?.[0];
}

function init(form: HTMLFormElement): void {
  const { api = '', event = '', checking = '', wrong = '', failed = '' } = form.dataset;
  const base = new URL(api.endsWith('/') ? api : `${api}/`, location.href);
  const input = form.querySelector<HTMLInputElement>('input[name="accessCode"]')!;
  const grant = form.querySelector<HTMLInputElement>('input[name="grant"]')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const status = document.getElementById('gate-robot');
  const alert = document.getElementById('gate-error');
  let busy = false;

  const say = (message: string) => {
    if (!alert) return;
    alert.textContent = message;
    alert.hidden = message === '';
    input.setAttribute('aria-invalid', message === wrong ? 'true' : 'false');
  };

  async function check(): Promise<void> {
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    say('');
    if (status) status.textContent = checking;
    try {
      const query = new URLSearchParams({ eventID: event });
      const challenge = await rowOf(
        await fetch(new URL(`event/accessCode/challenge?${query}`, base), { credentials: 'omit' }),
      );
      if (!challenge?.challenge) throw new Error('no challenge');
      const { solveAltcha } = await import('../shared/altcha.ts');
      const altcha = await solveAltcha(challenge.challenge);
      const res = await fetch(new URL(`event/checkAccessCode?${query}`, base), {
        method: 'POST',
        body: new URLSearchParams({ accessCode: input.value.trim(), altcha }),
        credentials: 'omit',
      });
      const row = await rowOf(res);
      if (row?.correct === '1' && row.grant) {
        grant.value = row.grant;
        form.submit();
        return;
      }
      if (res.status === 429) {
        // The site says how long to wait, in the page's language: post the code to it as usual.
        form.submit();
        return;
      }
      say(row ? wrong : failed);
      if (row) input.focus();
    } catch {
      say(failed);
    } finally {
      if (status) status.textContent = '';
      button.removeAttribute('aria-disabled');
      busy = false;
    }
  }

  form.addEventListener('submit', (e) => {
    // The grant (or a wait) goes to the site as a plain post; any other try is checked here.
    if (grant.value !== '' || busy) {
      if (busy) e.preventDefault();
      return;
    }
    e.preventDefault();
    void check();
  });
  // The visitor has already asked: check the code they typed at once.
  if (input.value.trim() !== '') void check();
}

const form = document.querySelector<HTMLFormElement>('form[data-challenge]');
if (form) init(form);
