import { type Endpoint, errorResponses } from "@carecampus/contract";
import type {
  ContextConfigDefault,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";

type Part<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType } ? S : undefined;

/** The Fastify schema of an entry, as the type provider sees it: request parts and the 200 answer. */
type SchemaOf<E extends Endpoint> = {
  params: Part<E, "params">;
  querystring: Part<E, "query">;
  body: Part<E, "body">;
  headers: Part<E, "headers">;
  response: Part<E, "response"> extends z.ZodType ? { 200: Part<E, "response"> } : unknown;
};

export type RouteExtras<E extends Endpoint> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<E>,
    ZodTypeProvider
  >,
  "schema"
>;

export type RouteHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  ZodTypeProvider
>;

/**
 * Registers one entry of the contract's endpoint table: method, path and schemas (request
 * parts, the 200 answer, the error bodies) come from the entry; the caller adds guards and
 * limits. Request and answer types of the handler follow from the entry's schemas.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteExtras<E>,
  handler: RouteHandler<E>,
): void {
  const response: Record<number, z.ZodType> = errorResponses(endpoint);
  if (endpoint.response) response[200] = endpoint.response;
  app.withTypeProvider<ZodTypeProvider>().route({
    ...(options as RouteShorthandOptions),
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [...endpoint.tags],
      description: endpoint.description,
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && { body: endpoint.body }),
      ...(endpoint.headers && { headers: endpoint.headers }),
      ...(Object.keys(response).length > 0 && { response }),
    },
    handler: handler as RouteHandlerMethod,
  });
}
