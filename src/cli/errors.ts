// What stopped a command, as one plain line (no stack): what failed, and which setting to look at.
// Errors of the configuration itself are ConfigError's own lines; these are what the machine answered.

interface SystemError {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
}

/** PostgreSQL's codes for a store that is there but will not have us (docs: "Appendix A. Error Codes"). */
const STORE_REFUSED: Record<string, string> = {
  '3D000': 'the database does not exist',
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
};

export function startFailure(err: unknown): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SystemError;
  const message = (e.message || e.code || String(err)).split('\n')[0];
  const where = e.address ? `${e.address}${e.port ? `:${e.port}` : ''}` : '';
  switch (e.code) {
    case 'EADDRINUSE':
      return `podium: ${where || 'the port'} is in use by another process (API_PORT, SITE_PORT, HOST)`;
    case 'EADDRNOTAVAIL':
      return `podium: cannot listen on ${where || 'that address'}: not an address of this machine (HOST)`;
    case 'EACCES':
      return `podium: not allowed to listen on ${where || 'that port'} (API_PORT, SITE_PORT: a port below 1024 needs privileges)`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `podium: cannot reach ${where || 'a server it needs'} (${e.code}): is the store of DATABASE_URL running?`;
  }
  if (e.code && STORE_REFUSED[e.code])
    return `podium: the store refused: ${STORE_REFUSED[e.code]} (${message}; DATABASE_URL)`;
  return `podium: ${message}`;
}
