import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from "@carecampus/contract";
import { describe, expect, it } from "vitest";
import { answerKeys, newIdempotencyKey } from "./idempotency";

describe("answer keys (Idempotency-Key)", () => {
  it("are keys the server accepts, each one new", () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(IdempotencyKey.safeParse(key).success).toBe(true);
  });

  it("stay the same while the same answer is sent again, and change with another answer", () => {
    const keys = answerKeys();
    const keyOf = keys.headers;
    const q = { id: 7, round: 1 };
    const first = keyOf(q, [3, 1])[IDEMPOTENCY_KEY_HEADER];
    expect(keyOf(q, [1, 3])[IDEMPOTENCY_KEY_HEADER]).toBe(first);
    const otherChoice = keyOf(q, [2])[IDEMPOTENCY_KEY_HEADER];
    expect(otherChoice).not.toBe(first);
    expect(keyOf({ id: 7, round: 2 }, [2])[IDEMPOTENCY_KEY_HEADER]).not.toBe(otherChoice);
    expect(keyOf({ id: 8, round: 2 }, [2])[IDEMPOTENCY_KEY_HEADER]).not.toBe(otherChoice);
    // An answer kept on the device is sent again with the key it was first sent with.
    keys.remember({ id: 9, round: 1 }, [4], "kept-key-0001");
    expect(keyOf({ id: 9, round: 1 }, [4])[IDEMPOTENCY_KEY_HEADER]).toBe("kept-key-0001");
  });
});
