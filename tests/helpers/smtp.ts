// A real SMTP server on loopback for the messaging tests (smtp-server): keeps every message, parsed
// back with mailparser, and answers chosen recipients with a refusal.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Sink {
  server: SMTPServer;
  port: number;
  received: { to: string[]; mail: ParsedMail; raw: string }[];
  /** SMTP replies by recipient: 550 refuses for good; 451 refuses this many times, then takes it. */
  refuse: Map<string, number>;
  busy: Map<string, number>;
}

export async function smtpSink(): Promise<Sink> {
  const received: Sink['received'] = [];
  const refuse = new Map<string, number>();
  const busy = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const code = refuse.get(to);
      if (code) return callback(Object.assign(new Error('no such mailbox'), { responseCode: code }));
      const left = busy.get(to) ?? 0;
      if (left > 0) {
        busy.set(to, left - 1);
        return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail, raw });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.server.address() as AddressInfo).port, received, refuse, busy };
}

export async function until<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function untilAsync<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
