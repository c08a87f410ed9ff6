/** The one error type services throw; the HTTP error handler maps its code to a status. */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "TOO_MANY_REQUESTS";

export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields for the answer body, e.g. the existing monitor's id on a 409. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError("BAD_REQUEST", message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError("CONFLICT", message, details);
export const forbidden = (message = "Forbidden resource") => new AppError("FORBIDDEN", message);
