// "Notify me if my saved sessions change" on the schedule page (issue 13, docs/push.md "Web Push"): no
// account, no e-mail. The switch exists only with this script (the server renders it hidden) and says
// what it can: off, on, blocked (the visitor refused notifications), unsupported, or an error in one
// line. On: registers the site's service worker (/sw.js, scope /), subscribes with the platform's VAPID
// key (push.key), and binds the subscription to the saved sessions (push.bind), again whenever they
// change (here, in another tab, or in a widget of this site). Off: push.dismiss, and the browser's
// subscription is given up when no other event of this site still uses it.
import { favouritesKey, loadFavourites } from '../shared/schedule/favourites.ts';

type State = 'off' | 'on' | 'blocked' | 'unsupported' | 'busy' | 'empty' | 'error';

/** Which events of this site have notifications on: `podium:push:{eventID}` = '1'. */
const onKey = (eventID: number) => `podium:push:${eventID}`;
const SW_URL = '/sw.js';

/**
 * The worker's address, as a TrustedScriptURL where the page enforces Trusted Types. The policy is
 * made once per page: a second createPolicy('podium-sw') is refused under the site's CSP (no
 * 'allow-duplicates'), and the switch registers the worker again on every bind.
 */
let trustedWorkerUrl: string | undefined;
function workerUrl(): string {
  const tt = (
    window as { trustedTypes?: { createPolicy(n: string, p: object): { createScriptURL(u: string): unknown } } }
  ).trustedTypes;
  if (!tt) return SW_URL;
  trustedWorkerUrl ??= tt
    .createPolicy('podium-sw', { createScriptURL: (u: string) => (u === SW_URL ? u : '') })
    .createScriptURL(SW_URL) as string;
  return trustedWorkerUrl;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function init(root: HTMLElement, box: HTMLElement): void {
  const eventID = Number(root.dataset.event);
  const { api = '' } = root.dataset;
  const page = box.dataset.page ?? '';
  const button = box.querySelector<HTMLButtonElement>('button');
  const status = box.querySelector<HTMLElement>('.push-status');
  if (!api || !button || !status || !Number.isSafeInteger(eventID) || eventID <= 0) return;
  const base = new URL(api.endsWith('/') ? api : `${api}/`, location.href);
  let storage: Storage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    storage = undefined;
  }
  box.hidden = false;
  const supported =
    window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

  function show(state: State, error = ''): void {
    box.dataset.state = state;
    // While busy the switch keeps saying what it was until it is something else.
    if (state !== 'busy') button!.setAttribute('aria-pressed', state === 'on' ? 'true' : 'false');
    // aria-disabled, not disabled: a disabled button loses focus, and the keyboard user pressing it would
    // be sent back to the top of the page. Clicks while busy are ignored below.
    button!.setAttribute('aria-disabled', state === 'busy' ? 'true' : 'false');
    button!.hidden = state === 'unsupported';
    const text = state === 'error' ? (box.dataset.failed ?? '{error}').replace('{error}', error) : box.dataset[state];
    status!.textContent = text ?? '';
  }

  /**
   * A call of the platform's API about this event (push.key is about none: the platform refuses a
   * parameter an operation does not take); its error line ("400 endpoint …") becomes the thrown message.
   */
  async function call(path: string, body?: Record<string, string>): Promise<Record<string, string>[]> {
    const res = await fetch(new URL(path === 'push/key' ? path : `${path}?eventID=${eventID}`, base), {
      method: body ? 'POST' : 'GET',
      credentials: 'omit',
      ...(body ? { body: new URLSearchParams(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(text.split('\n')[0] || `${res.status}`);
    return (JSON.parse(text) as { data: Record<string, string>[] }).data;
  }

  async function subscription(create: boolean): Promise<PushSubscription | null> {
    const registration = await navigator.serviceWorker.register(workerUrl(), { scope: '/' });
    const existing = await registration.pushManager.getSubscription();
    if (existing || !create) return existing;
    const [{ publicKey = '' } = {}] = await call('push/key');
    return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  }

  const keysOf = (sub: PushSubscription) => {
    const json = sub.toJSON();
    return { endpoint: sub.endpoint, p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' };
  };
  const isOn = () => storage?.getItem(onKey(eventID)) === '1';

  /** Tells the platform the saved sessions now (none: this browser is dismissed until there are some). */
  async function sync(sub: PushSubscription): Promise<void> {
    const saved = [...loadFavourites(storage, eventID)].sort((a, b) => a - b).slice(0, 200);
    const { endpoint, p256dh, auth } = keysOf(sub);
    if (saved.length > 0) await call('push/bind', { endpoint, p256dh, auth, activityIDs: saved.join(','), page });
    else await call('push/dismiss', { endpoint, auth }).catch(() => undefined);
  }

  async function turnOn(): Promise<void> {
    if (loadFavourites(storage, eventID).size === 0) return show('empty');
    show('busy');
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return show(permission === 'denied' ? 'blocked' : 'off');
    const sub = await subscription(true);
    if (!sub) throw new Error('no subscription');
    await sync(sub);
    storage?.setItem(onKey(eventID), '1');
    show('on');
  }

  async function turnOff(): Promise<void> {
    show('busy');
    storage?.removeItem(onKey(eventID));
    const sub = await subscription(false);
    if (sub) {
      const { endpoint, auth } = keysOf(sub);
      await call('push/dismiss', { endpoint, auth }).catch(() => undefined);
      // The subscription is the browser's for the whole site: kept while another event uses it.
      const others = Object.keys(storage ?? {}).some((k) => k.startsWith('podium:push:'));
      if (!others) await sub.unsubscribe();
    }
    show('off');
  }

  /** Again after a change of the saved sessions, while on. */
  let pending = Promise.resolve();
  const resync = () => {
    if (!isOn()) return;
    pending = pending
      .then(async () => {
        const sub = await subscription(false);
        if (sub) await sync(sub);
        else {
          storage?.removeItem(onKey(eventID));
          show('off');
        }
      })
      .catch((err: unknown) => show('error', err instanceof Error ? err.message : String(err)));
  };

  if (!supported) return show('unsupported');
  if (Notification.permission === 'denied') show('blocked');
  else show(isOn() ? 'on' : 'off');
  if (isOn() && Notification.permission === 'granted') resync();

  button.addEventListener('click', () => {
    if (box.dataset.state === 'busy') return;
    const on = button.getAttribute('aria-pressed') === 'true';
    (on ? turnOff() : turnOn()).catch((err: unknown) => {
      show('error', err instanceof Error ? err.message : String(err));
    });
  });
  root.addEventListener('favourites-change', resync);
  window.addEventListener('storage', (e) => {
    if (e.key === favouritesKey(eventID)) resync();
  });
}

const root = document.getElementById('schedule');
const box = root?.querySelector<HTMLElement>('.push-switch');
if (root && box) init(root, box);
