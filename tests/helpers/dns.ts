// A real DNS server on loopback for the messaging tests (dns2, UDP): answers TXT and MX questions from
// a zone the test fills and changes, NXDOMAIN for names it does not hold, and SERVFAIL for names in
// `failing` (a broken server). The platform's resolver is pointed at it with DNS_SERVERS.
import dns2 from 'dns2';

export interface Zone {
  readonly txt: Map<string, string[]>;
  readonly mx: Map<string, string[]>;
  readonly failing: Set<string>;
  /** Questions asked, `TYPE name`. */
  readonly asked: string[];
  /** 127.0.0.1:<port>, for DNS_SERVERS. */
  readonly server: string;
  close(): Promise<void>;
}

export async function dnsServer(): Promise<Zone> {
  const { Packet } = dns2;
  // dns2's types lack RCODE and want a toBuffer on answers that its encoder does not need.
  const RCODE = (Packet as unknown as { RCODE: { SERVFAIL: number; NXDOMAIN: number } }).RCODE;
  type Answer = Parameters<InstanceType<typeof Packet>['answers']['push']>[0];
  const txt = new Map<string, string[]>();
  const mx = new Map<string, string[]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      asked.push(`${question.type === Packet.TYPE.MX ? 'MX' : 'TXT'} ${name}`);
      if (failing.has(name)) {
        response.header.rcode = RCODE.SERVFAIL;
        return send(response);
      }
      if (!txt.has(name) && !mx.has(name)) {
        response.header.rcode = RCODE.NXDOMAIN;
        return send(response);
      }
      if (question.type === Packet.TYPE.TXT)
        for (const data of txt.get(name) ?? [])
          response.answers.push({
            name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 60,
            data,
          } as unknown as Answer);
      if (question.type === Packet.TYPE.MX)
        for (const [i, exchange] of (mx.get(name) ?? []).entries())
          response.answers.push({ name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange, priority: 10 + i } as unknown as Answer); // prettier-ignore
      send(response);
    },
  });
  const listening = new Promise<void>((resolve) => server.on('listening', () => resolve()));
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  await listening;
  const port = (server.addresses() as { udp: { port: number } }).udp.port;
  return {
    txt,
    mx,
    failing,
    asked,
    server: `127.0.0.1:${port}`,
    close: async () => {
      await server.close();
    },
  };
}
