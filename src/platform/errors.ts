/** The one error type handlers throw; the app turns it into the spec's `NNN message` line (spec §7). */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const forbidden = (why = 'permission level too low') => new ApiError(403, why);
export const badRequest = (message: string) => new ApiError(400, message);
export const conflict = (message: string) => new ApiError(409, message);
