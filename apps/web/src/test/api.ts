import { type ErrorCode, endpointUrl, errorStatus } from "@carecampus/contract";
import { vi } from "vitest";

/*
 * Component tests talk to a stand-in for the server: the API client's `fetch` answered per
 * endpoint of the contract's table, so a screen goes through the real client (its error toast,
 * its session handling) without a network.
 */

type Answer = unknown | ((request: { body: unknown }) => unknown);
/** An endpoint of the table (`api.x`), its path parameters if it has any, and what it answers. */
export interface Stub {
  route: { readonly method: string; readonly path: string };
  params?: Record<string, unknown>;
  answer: Answer;
}

/** An answer the test lets go of later: the request stays pending until then. */
export function held<T>(): { answer: Promise<T>; release: (value: T) => void } {
  let release: (value: T) => void = () => {};
  const answer = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { answer, release };
}

/** The spec §8 body of an error code, thrown by an answer to make the request fail with it. */
export class ApiFailure {
  constructor(readonly code: ErrorCode) {}
}

/**
 * Answers the listed endpoints (a value, or a function of the request's body that may return a
 * promise or throw an ApiFailure); any other request fails the test. Returns the requests made.
 */
export function stubApi(stubs: Stub[]) {
  const requests: { method: string; url: string; body: unknown }[] = [];
  const routes = stubs.map(({ route, params, answer }) => ({
    method: route.method,
    url: endpointUrl(route, { params }),
    answer,
  }));
  const json = (status: number, data: unknown) =>
    new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const path = url.split("?")[0];
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    requests.push({ method, url, body });
    const route = routes.find((r) => r.method === method && r.url === path);
    if (!route) throw new Error(`unexpected request ${method} ${url}`);
    try {
      const data = typeof route.answer === "function" ? await route.answer({ body }) : route.answer;
      return json(200, data);
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      const status = errorStatus[err.code];
      return json(status, { error_code: err.code, message: "refused", status_code: status });
    }
  });
  return requests;
}
