import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const perSecond = z.coerce.number().int().min(1);

const schema = z.object({
  /** Address the API and the site listen on. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Port of the platform API. */
  API_PORT: port.default(8080),
  /** Port of the public website (Astro). */
  SITE_PORT: port.default(4321),
  /** The store: file:./path.db for SQLite (node:sqlite), postgres://… for PostgreSQL. */
  DATABASE_URL: z
    .string()
    .default('file:./data/podium.db')
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), 'must start with file: or postgres://'),
  /** When set, rate-limit counters are shared through this Redis. */
  REDIS_URL: z
    .string()
    .refine((v) => /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://')
    .optional(),
  /** Proxy addresses (comma-separated IPs/CIDRs) whose X-Forwarded-For is believed. */
  TRUST_PROXY: z.string().optional(),
  /** Calls per second allowed for one token (spec §8). */
  RATE_LIMIT_TOKEN: perSecond.default(10),
  /** Calls per second allowed from one client address (spec §8). */
  RATE_LIMIT_CLIENT: perSecond.default(100),
  /** Days a token from person.signIn stays valid. */
  TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Folder that bulk operations (B path) may read files from. */
  IMPORT_DIR: z.string().default('./data/imports'),
  /** Largest request body accepted, in bytes. */
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
  /** pino log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** 1 seeds the demo company and event when the store is empty at start. */
  SEED_DEMO: z.enum(['0', '1']).default('1'),
});

export type Config = Readonly<z.infer<typeof schema>>;

export class ConfigError extends Error {}

/** Reads and validates the configuration; the only place that reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(result.data);
}
