// Which push endpoints the platform will POST to. The address comes from a browser, so it is a request
// the platform makes on a stranger's behalf (server-side request forgery): only the push services named by
// WEBPUSH_HOSTS (a host or a subdomain of one), over https on the default port, with no user name or
// password in the address. WEBPUSH_ALLOW_HTTP=1 (tests, development) also lets http:// and other ports
// through — still only to those hosts. Checked when a browser binds, and again before every send (the
// configuration may have changed since).

/** Longest endpoint accepted: the services' own are 200 to 500 characters. */
export const MAX_ENDPOINT = 1000;

export interface EndpointRule {
  readonly hosts: readonly string[];
  readonly allowHttp: boolean;
}

/** Why `endpoint` is refused, as the end of a `400 endpoint …` line; undefined when it is accepted. */
export function endpointProblem(endpoint: string, rule: EndpointRule): string | undefined {
  if (endpoint.length > MAX_ENDPOINT) return `must be at most ${MAX_ENDPOINT} characters`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an https:// address';
  }
  const https = url.protocol === 'https:' && url.port === '';
  const http = rule.allowHttp && (url.protocol === 'http:' || url.protocol === 'https:');
  if (!https && !http) return 'must be an https:// address';
  if (url.username || url.password) return 'must not carry a user name or password';
  const host = url.hostname.toLowerCase();
  if (!rule.hosts.some((h) => host === h || host.endsWith(`.${h}`)))
    return 'must be the address of a known push service';
  return undefined;
}
