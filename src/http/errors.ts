/** An error the API answers as `{message}` with its status; anything else becomes a logged 500. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = () => new ApiError(401, 'UNAUTHORIZED');
export const notFound = (message: string) => new ApiError(404, message);
