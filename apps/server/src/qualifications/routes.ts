import {
  AdditionalQualification,
  AdditionalQualificationCreate,
  AdditionalQualificationList,
  AdditionalQualificationQuery,
  ErrorBody,
  Id,
  UserAdditionalQualifications,
} from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, authenticate } from "../auth/guards";
import {
  createAdditionalQualification,
  getUserAdditionalQualifications,
  listAdditionalQualifications,
  setUserAdditionalQualifications,
} from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const UserIdParam = z.object({ userId: Id }).strict();

/** Additional (external) qualifications of spec §3 and §7 /external. */
export async function additionalQualificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ["administration"];

  r.get(
    "/external",
    {
      schema: {
        tags,
        querystring: AdditionalQualificationQuery,
        response: { 200: AdditionalQualificationList, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => listAdditionalQualifications(db, actorOf(request), request.query.facility),
  );

  r.post(
    "/external",
    {
      schema: { tags, body: AdditionalQualificationCreate, response: { 200: AdditionalQualification, ...errors } },
      onRequest: authenticate(),
    },
    (request) => createAdditionalQualification(db, actorOf(request), request.body),
  );

  r.get(
    "/external/user/:userId",
    {
      schema: { tags, params: UserIdParam, response: { 200: AdditionalQualificationList, ...errors } },
      onRequest: authenticate(),
    },
    (request) => getUserAdditionalQualifications(db, actorOf(request), request.params.userId),
  );

  r.put(
    "/external/user/:userId",
    {
      schema: {
        tags,
        params: UserIdParam,
        body: UserAdditionalQualifications,
        response: { 200: AdditionalQualificationList, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => setUserAdditionalQualifications(db, actorOf(request), request.params.userId, request.body.externalIDs),
  );
}
