import { afterAll, describe, expect, it } from "vitest";
import { hashPassword, useTestPasswordHashing, verifyPassword } from "./passwords";

describe("password hashes", () => {
  afterAll(() => useTestPasswordHashing());

  it("are argon2id at OWASP's baseline (19 MiB, two passes) unless a test server asks for cheap ones", async () => {
    useTestPasswordHashing(false);
    const real = await hashPassword("Geheim-1234!");
    expect(real).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    useTestPasswordHashing(true);
    const cheap = await hashPassword("Geheim-1234!");
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    // Each names its parameters: either verifies in a process of the other kind.
    expect(await verifyPassword(real, "Geheim-1234!")).toBe(true);
    expect(await verifyPassword(cheap, "Geheim-1234!")).toBe(true);
    expect(await verifyPassword(real, "geheim-1234!")).toBe(false);
    expect(await verifyPassword(undefined, "Geheim-1234!")).toBe(false);
  });
});
