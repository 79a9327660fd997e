import { z } from "zod";

/** The body of every error answer (spec §8); errors.ts has the codes and isErrorBody, without zod. */
export const ErrorBody = z
  .object({
    error_code: z.number().int(),
    message: z.string().optional(),
    status_code: z.number().int(),
  })
  .meta({ id: "ErrorBody" });
export type ErrorBody = z.infer<typeof ErrorBody>;
