// The check-in page's script (/{company}/{event}/checkin, docs/site.md "Check-in"). It talks to this
// site only — ./checkin/scan and ./checkin/stats, which call the platform with the staff token of an
// HttpOnly cookie this script never sees. Every scan goes into the offline queue first (checkin-queue.ts)
// and is sent at once when there is a connection: the answer is the big green or red result — or amber
// for a person already inside scanned again, a valid ticket scanned twice and no refusal —, announced
// by the result's live region. Without a connection the scan waits (the count of waiting scans is said),
// and the queue is sent when the browser is back online (or every 10 s while scans wait); a scan the
// platform refuses then (unknown code, not approved) goes to the list of refusals, and one of a person
// already inside (the same person scanned twice while offline) to a list of its own: a duplicate is
// no one turned away. Staff pick the door (the event's entrance or a session's), which this phone remembers
// (localStorage) and the page shows above the result; each scan keeps the door it was made at, even in
// the queue. The door's inside-count is read every 5 s and after each answer. The camera is offered where
// the browser has BarcodeDetector; typing the code always works. The page's service worker (./sw.js,
// checkin-sw.js) is registered so a reload without a network still opens this page. DOM built with
// textContent only (Trusted Types are enforced on the site).

import { newNonce, ScanQueue, type QueuedScan } from './checkin-queue.ts';
import { formatTime, localTimeZone } from '../shared/schedule/time.ts';

interface ScanAnswer {
  result: string;
  reason: string;
  name: string;
  replayed: string;
  nonce: string;
}

/** What sending one scan came to: answered, to be sent again later, or refused for good. */
type Sent =
  | { kind: 'answer'; answer: ScanAnswer }
  | { kind: 'later'; why: 'network' | 'signedOut' | 'busy'; retryMs?: number }
  | { kind: 'refused'; message: string };

const app = document.getElementById('checkin-app');
if (app) start(app);

function start(root: HTMLElement) {
  const msg = JSON.parse(root.dataset.msg ?? '{}') as Record<string, string>;
  const text = (key: string, vars: Record<string, string | number> = {}) =>
    (msg[key] ?? key).replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
  const count = (key: string, n: number) =>
    n === 1 && msg[`${key}.one`] ? msg[`${key}.one`] : text(key, { count: n });
  const byId = (id: string) => document.getElementById(id)!;
  const scanUrl = root.dataset.scan!;
  const statsUrl = root.dataset.stats!;
  const queue = new ScanQueue(root.dataset.event!);
  const result = byId('checkin-result');
  const queueLine = byId('checkin-queue');
  const input = byId('checkin-code') as HTMLInputElement;
  const conflicts = byId('checkin-conflicts');
  const conflictList = byId('checkin-conflict-list');
  const again = byId('checkin-again');
  const againList = byId('checkin-again-list');
  const doorSelect = byId('checkin-door') as HTMLSelectElement;
  const doorKey = `podium:checkin:door:${queue.event}`;
  const inflight = new Set<string>();
  let flushing = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let signedOut = false;

  const show = (state: 'ready' | 'checking' | 'ok' | 'again' | 'refused' | 'queued', line: string, detail = '') => {
    result.dataset.state = state;
    const strong = document.createElement('strong');
    strong.textContent = line;
    result.replaceChildren(strong);
    if (detail) {
      const span = document.createElement('span');
      span.textContent = detail;
      result.append(span);
    }
  };
  const reasonOf = (a: ScanAnswer) => msg[`reason.${a.reason}`] ?? a.reason;
  const showAnswer = (a: ScanAnswer) => {
    const again = a.replayed === '1' ? ` ${text('replayed')}` : '';
    if (a.result === 'first' || a.result === 'reentry') show('ok', text(a.result, { name: a.name }) + again);
    // A person already inside scanned in again: the ticket is valid, scanned twice (it happens at every
    // door) — its own state, not a red refusal that tells the staff the ticket is bad.
    else if (a.result === 'refused' && a.reason === 'already inside')
      show('again', (a.name ? text('again', { name: a.name }) : reasonOf(a)) + again, text('againNote'));
    else show('refused', `${text('refused')}: ${reasonOf(a)}`, a.name);
  };
  show('ready', text('ready'));

  let storage: Storage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    storage = undefined;
  }
  /** The door scans are made at now: 0 the entrance, else a session's activityID. */
  let door = 0;
  const useDoor = (value: string) => {
    const option = [...doorSelect.options].find((o) => o.value === value) ?? doorSelect.options[0];
    doorSelect.value = option.value;
    door = Number(option.value);
    byId('checkin-door-name').textContent = option.text;
    const approved = document.getElementById('checkin-approved');
    if (approved) approved.hidden = door !== 0;
  };
  useDoor(storage?.getItem(doorKey) ?? '0');
  doorSelect.addEventListener('change', () => {
    useDoor(doorSelect.value);
    try {
      storage?.setItem(doorKey, String(door));
    } catch {
      // storage full or refused: the door holds for this page's life
    }
    byId('checkin-inside').textContent = '–';
    show('ready', text('ready'));
    void readStats();
  });

  async function send(scan: QueuedScan): Promise<Sent> {
    let res: Response;
    try {
      res = await fetch(scanUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ code: scan.code, date: scan.date, nonce: scan.nonce, activityID: scan.door ?? 0 }),
        cache: 'no-store',
      });
    } catch {
      return { kind: 'later', why: 'network' };
    }
    const body = (await res.json().catch(() => ({}))) as ScanAnswer & { error?: string };
    if (res.ok) return { kind: 'answer', answer: body };
    if (res.status === 401) return { kind: 'later', why: 'signedOut' };
    if (res.status === 429 || res.status >= 500) {
      const retry = Number(res.headers.get('retry-after')) || 10;
      return { kind: 'later', why: 'busy', retryMs: retry * 1000 };
    }
    return { kind: 'refused', message: body.error ?? String(res.status) };
  }

  /** A sent scan's line under "Refused when sent", or (list: 'again') under "Already inside when sent". */
  function addConflict(scan: QueuedScan, line: string, list: 'refused' | 'again' = 'refused') {
    const [section, ul] = list === 'again' ? [again, againList] : [conflicts, conflictList];
    const li = document.createElement('li');
    const time = document.createElement('time');
    const at = new Date(scan.date * 1000);
    time.dateTime = at.toISOString();
    // HH:MM as the rest of the site writes times, in this device's zone (it stands at the door).
    time.textContent = formatTime(scan.date, localTimeZone(), document.documentElement.lang);
    li.append(time, ` ${line}`);
    ul.prepend(li);
    section.hidden = false;
  }

  async function sayQueue(sent = 0) {
    const waiting = (await queue.list()).length;
    const parts: string[] = [];
    if (!navigator.onLine) parts.push(text('offline'));
    if (waiting > 0) parts.push(count('waiting', waiting));
    if (sent > 0) parts.push(count('sent', sent));
    if (signedOut && waiting > 0) parts.push(text('signInAgain'));
    queueLine.textContent = parts.join(' · ');
  }

  /** Sends every waiting scan, oldest first; stops at the first that must wait (no connection, …). */
  async function flush() {
    if (flushing) return;
    flushing = true;
    clearTimeout(retryTimer);
    let sent = 0;
    let wait: number | undefined;
    try {
      for (const scan of await queue.list()) {
        if (inflight.has(scan.nonce)) continue;
        inflight.add(scan.nonce);
        const out = await send(scan).finally(() => inflight.delete(scan.nonce));
        if (out.kind === 'later') {
          signedOut = out.why === 'signedOut';
          wait = out.retryMs ?? 10_000;
          break;
        }
        await queue.remove(scan.nonce);
        sent++;
        if (out.kind === 'refused') addConflict(scan, `${scan.code}: ${out.message}`);
        // Already inside: the person was let in by an earlier scan (the door said "Saved", offline), so
        // this is a duplicate, said as a scan online says it, not a refusal of entry.
        else if (out.answer.result === 'refused' && out.answer.reason === 'already inside')
          addConflict(scan, `${out.answer.name || scan.code}: ${reasonOf(out.answer)}`, 'again');
        else if (out.answer.result === 'refused')
          addConflict(scan, `${out.answer.name || scan.code}: ${reasonOf(out.answer)}`);
        // The same code in the same second on this door is one scan to the platform: another scan's
        // answer, which let the person in — a duplicate too.
        else if (out.answer.replayed === '1' && out.answer.nonce !== scan.nonce)
          addConflict(scan, `${out.answer.name}: ${text('replayed')}`, 'again');
      }
    } finally {
      flushing = false;
    }
    await sayQueue(sent);
    // "Saved on this phone" is no longer true once the queue went out.
    if (sent > 0 && result.dataset.state === 'queued' && (await queue.list()).length === 0)
      show('ready', text('ready'));
    if (sent > 0) void readStats();
    if (wait !== undefined && !signedOut) retryTimer = setTimeout(() => void flush(), wait);
  }

  async function scanCode(code: string) {
    const scan: QueuedScan = { nonce: newNonce(), event: queue.event, door, code, date: Math.floor(Date.now() / 1000), at: Date.now() }; // prettier-ignore
    await queue.add(scan);
    if (!navigator.onLine) {
      show('queued', text('queued'), code);
      await sayQueue();
      return;
    }
    show('checking', text('checking'));
    inflight.add(scan.nonce);
    const out = await send(scan).finally(() => inflight.delete(scan.nonce));
    if (out.kind === 'later') {
      signedOut = out.why === 'signedOut';
      // Busy (429, 5xx) is no lost connection: the staff are told the scan waits a few seconds, not for a network.
      show('queued', signedOut ? text('signInAgain') : text(out.why === 'busy' ? 'busy' : 'queued'), code);
      await sayQueue();
      if (!signedOut) retryTimer = setTimeout(() => void flush(), out.retryMs ?? 10_000);
      return;
    }
    await queue.remove(scan.nonce);
    if (out.kind === 'refused') show('refused', text('failed', { message: out.message }), code);
    else showAnswer(out.answer);
    void readStats();
    await sayQueue();
  }

  // The count is read one request at a time: a read asked for meanwhile (a scan answered, another door
  // picked) runs once after it, so a burst costs the platform two calls, not one each (the staff token
  // may make 10 a second, scans included). After a 429 the next read waits as long as the answer said.
  let reading = false;
  let readAgain = false;
  let quietUntil = 0;
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  async function readStats(): Promise<void> {
    if (!navigator.onLine || document.hidden) return;
    if (reading) {
      readAgain = true;
      return;
    }
    const wait = quietUntil - Date.now();
    if (wait > 0) {
      quietTimer ??= setTimeout(() => {
        quietTimer = undefined;
        void readStats();
      }, wait);
      return;
    }
    reading = true;
    try {
      await readStatsOnce();
    } finally {
      reading = false;
    }
    if (readAgain) {
      readAgain = false;
      void readStats();
    }
  }

  async function readStatsOnce() {
    const asked = door;
    try {
      const url = asked === 0 ? statsUrl : `${statsUrl}?activityID=${asked}`;
      const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
      if (res.status === 429) quietUntil = Date.now() + (Number(res.headers.get('retry-after')) || 1) * 1000;
      if (!res.ok) return;
      const s = (await res.json()) as { inside: string; approved: string; attendeesInside: string };
      // Another door was picked meanwhile: its own answer follows.
      if (asked !== door) return;
      byId('checkin-inside').textContent = s.inside;
      const approved = document.getElementById('checkin-approved');
      if (approved && s.approved)
        approved.textContent = text('ofApproved', { inside: s.attendeesInside, approved: s.approved });
    } catch {
      // offline: the next poll tries again
    }
  }

  byId('checkin-manual').addEventListener('submit', (e) => {
    e.preventDefault();
    const code = input.value.trim();
    input.value = '';
    input.focus();
    // Nothing typed: the last result would stay as if it were this one's.
    if (code) void scanCode(code);
    else show('ready', text('ready'));
  });
  // Without a connection the sign-out's post would end on the browser's own error page, and sign nobody
  // out: the page says so and stays.
  root.querySelector('form.checkin-signout')?.addEventListener('submit', (e) => {
    if (navigator.onLine) return;
    e.preventDefault();
    show('queued', text('signOutOffline'));
  });
  window.addEventListener('online', () => void flush().then(readStats));
  window.addEventListener('offline', () => void sayQueue());
  setInterval(() => void readStats(), 5000);
  void flush();
  // The server's page counts the entrance; a session's door remembered on this phone is read now (and
  // not shown with the entrance's count meanwhile, nor offline). Opened offline, the page is the copy the
  // service worker kept: its count is of then, so none is shown until a read succeeds.
  if (door !== 0 || !navigator.onLine) {
    byId('checkin-inside').textContent = '–';
    void readStats();
  }
  keepOffline(root, byId('checkin-offline'));
  camera(byId('checkin-camera') as HTMLButtonElement, byId('checkin-video') as HTMLVideoElement, text, scanCode);
}

/**
 * Registers the page's service worker (checkin-sw.js at ./sw.js, scope: this page's path), which keeps
 * the page and its files; once it is active, says so. The address goes through the `podium-checkin-sw`
 * Trusted Types policy, which passes that one address only.
 */
function keepOffline(root: HTMLElement, note: HTMLElement) {
  const { sw, swScope } = root.dataset;
  if (!sw || !swScope || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  const tt = (
    window as { trustedTypes?: { createPolicy(n: string, p: object): { createScriptURL(u: string): unknown } } }
  ).trustedTypes;
  let url: string;
  try {
    url = tt
      ? (tt.createPolicy('podium-checkin-sw', { createScriptURL: (u: string) => (u === sw ? u : '') }).createScriptURL(sw) as string) // prettier-ignore
      : sw;
  } catch {
    return; // the policy refused (another copy of this script made it): the page works online
  }
  navigator.serviceWorker
    .register(url, { scope: swScope, updateViaCache: 'none' })
    .then(async (registration) => {
      const worker = registration.active ?? registration.waiting ?? registration.installing;
      if (worker && worker.state !== 'activated')
        await new Promise<void>((resolve) =>
          worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
        );
      note.hidden = false;
      root.dataset.offline = 'ready';
    })
    .catch(() => {
      // No worker (storage refused, the page not kept): the page works online, and scans still queue.
    });
}

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

/** The camera button, where the browser reads QR codes itself (BarcodeDetector) and may film. */
function camera(
  button: HTMLButtonElement,
  video: HTMLVideoElement,
  text: (key: string) => string,
  onCode: (code: string) => Promise<void>,
) {
  const box = button.parentElement!;
  const Barcode = (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Barcode || !navigator.mediaDevices?.getUserMedia) return; // typing the code is the way
  box.hidden = false;
  video.hidden = true;
  let stream: MediaStream | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let last = { code: '', at: 0 };
  const stop = () => {
    clearInterval(timer);
    stream?.getTracks().forEach((t) => t.stop());
    stream = undefined;
    video.hidden = true;
    button.textContent = text('camera');
  };
  button.addEventListener('click', async () => {
    if (stream) return stop();
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch {
      button.textContent = text('cameraOff');
      button.disabled = true;
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    await video.play().catch(() => {});
    button.textContent = text('cameraStop');
    const detector = new Barcode({ formats: ['qr_code'] });
    let busy = false;
    timer = setInterval(async () => {
      if (busy || video.readyState < 2) return;
      busy = true;
      try {
        const code = (await detector.detect(video))[0]?.rawValue?.trim();
        // The same code held in front of the camera is one scan (for 3 s).
        if (code && (code !== last.code || Date.now() - last.at > 3000)) {
          last = { code, at: Date.now() };
          await onCode(code);
        }
      } catch {
        // a frame the detector could not read
      } finally {
        busy = false;
      }
    }, 250);
  });
}
