import type { JobSettings } from './queue.ts';

/**
 * The delay before the next try of a job whose attempt `attempt` (1-based) failed: pg-boss's formula, so
 * both engines back off alike — retrySeconds · 2^(attempt-1), plus up to as much again of jitter (so jobs
 * that failed together do not all come back together), at most retryMaxSeconds.
 */
export function retryDelayMs(attempt: number, s: Pick<JobSettings, 'retrySeconds' | 'retryMaxSeconds'>): number {
  const base = Math.max(1, s.retrySeconds) * 2 ** Math.min(16, attempt - 1);
  return Math.round(Math.min(s.retryMaxSeconds, base + base * Math.random()) * 1000);
}

/**
 * A failure as it is kept with the job and shown by failed(): one plain line (no stack, which names
 * files), at most 300 characters, with a password in a connection address masked.
 */
export function plainLine(err: unknown): string {
  const text = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  const line = (text.split(/\r?\n/).find((l) => l.trim()) ?? 'failed').trim();
  const masked = line.replace(/(\w+:\/\/[^:/@\s]+:)[^@\s]+@/g, '$1***@');
  return masked.length > 300 ? `${masked.slice(0, 299)}…` : masked;
}
