// @vitest-environment jsdom
import type { User } from "@carecampus/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { early, startEarly } from "../api/early";
import { RETRY_MS, untilSent } from "../features/learning/answer-outbox";
import { sessionStore } from "./store";

/*
 * Another tab logs someone else in while this tab still has answers on their way (issue 26's
 * review): nothing that was asked for the last user may land in the new user's session.
 */

const user = (id: number, name: string) =>
  ({
    id,
    name,
    surname: "Test",
    login: `${name.toLowerCase()}.test`,
    facility: { id: 1, name: "Haus" },
    roles: ["employee"],
    email: null,
    salutation: "-",
    activities: [],
    qualifications: [],
    avatar: "owl",
    language: "de",
    theme: "carely",
  }) as unknown as User;
const base64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const token = (sub: number, iat: number) =>
  `${base64url('{"alg":"HS256"}')}.${base64url(JSON.stringify({ sub: String(sub), iat, exp: 4_000_000_000 }))}.sig`;
const A = user(7, "Anna");
const B = user(8, "Bernd");

beforeEach(() => {
  localStorage.clear();
  sessionStore.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a user switch in this tab", () => {
  it("drops a renewed token and a saved user of the last user", () => {
    sessionStore.login(token(B.id, 1), B);
    // A's refresh and A's profile save, sent before the switch, answer after it.
    sessionStore.setToken(token(A.id, 2));
    sessionStore.setUser({ ...A, name: "Anna neu" });
    expect(sessionStore.get().session?.token).toBe(token(B.id, 1));
    expect(sessionStore.get().session?.user).toEqual(B);
    expect(localStorage.getItem("carecampus.token")).toBe(token(B.id, 1));
    // B's own renewal and save are taken.
    sessionStore.setToken(token(B.id, 3));
    sessionStore.setUser({ ...B, name: "Bernd neu" });
    expect(sessionStore.get().session?.token).toBe(token(B.id, 3));
    expect(sessionStore.get().session?.user.name).toBe("Bernd neu");
  });

  it("does not hand the new user a start-up request made for the last one", async () => {
    sessionStore.login(token(A.id, 1), A);
    startEarly("topics", async () => "Anna's topics");
    sessionStore.login(token(B.id, 1), B);
    expect(await early("topics", async () => "Bernd's topics")).toBe("Bernd's topics");
    // For the user it was made for, it is taken.
    startEarly("topics", async () => "Bernd's early topics");
    expect(await early("topics", async () => "asked again")).toBe("Bernd's early topics");
  });

  it("stops sending a kept answer again once the quiz was left, also when it was left before the first retry", async () => {
    vi.useFakeTimers();
    const left = new AbortController();
    left.abort(new Error("left the quiz"));
    const send = vi.fn(async () => ({ ok: true }));
    const sending = untilSent(send, left.signal);
    const outcome = sending.then(
      () => "sent",
      () => "stopped",
    );
    await vi.advanceTimersByTimeAsync(RETRY_MS * 3);
    expect(await outcome).toBe("stopped");
    expect(send).not.toHaveBeenCalled();
  });
});
