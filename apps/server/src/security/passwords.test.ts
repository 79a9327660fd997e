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

  it("verify an unknown login against a dummy hash of the same cost as a stored one", async () => {
    useTestPasswordHashing(false);
    const stored = await hashPassword("Geheim-1234!");
    // CPU time of this process (argon2 runs on libuv's threads, counted too): a busy machine
    // stretches wall times at random, the work stays.
    const cost = async (hash: string | undefined) => {
      const start = process.cpuUsage();
      expect(await verifyPassword(hash, "Falsch-1234!")).toBe(false);
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    await cost(undefined);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await cost(stored));
      unknown.push(await cost(undefined));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1] as number;
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.6);
  });
});
