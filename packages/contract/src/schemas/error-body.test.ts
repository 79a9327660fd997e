import { describe, expect, it } from "vitest";
import { isErrorBody } from "../errors";
import { ErrorBody } from "./error-body";

describe("the error body", () => {
  it("is recognised without zod exactly as its schema accepts it", () => {
    const samples: unknown[] = [
      { error_code: 1000, status_code: 401 },
      { error_code: 1000, status_code: 401, message: "Invalid credentials" },
      { error_code: -1, status_code: 500, message: "", extra: [1] },
      { error_code: 1000, status_code: 401, message: null },
      { error_code: 1000, status_code: 401, message: 5 },
      { error_code: 1.5, status_code: 401 },
      { error_code: "1000", status_code: 401 },
      { error_code: 1000 },
      { status_code: 401 },
      { error_code: 2 ** 53, status_code: 400 },
      { error_code: Number.NaN, status_code: 400 },
      { error_code: Number.POSITIVE_INFINITY, status_code: 400 },
      [],
      [1000, 401],
      null,
      undefined,
      "error",
      1000,
    ];
    for (const sample of samples) {
      expect(isErrorBody(sample), JSON.stringify(sample)).toBe(ErrorBody.safeParse(sample).success);
    }
    expect(samples.filter(isErrorBody)).toHaveLength(3);
  });
});
